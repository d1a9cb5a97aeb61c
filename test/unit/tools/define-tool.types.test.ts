import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../../src/tools/define-tool';
import type { AnyTool, Tool } from '../../../src/tools/tool';
import { ToolRegistry } from '../../../src/tools/tool-registry';

describe('defineTool types', () => {
  it('infers execute input from the schema output, defaults and transforms included', () => {
    const tool = defineTool({
      name: 'search',
      description: 'Searches.',
      inputSchema: z.object({
        query: z.string(),
        limit: z.number().int().default(10),
        tags: z.array(z.string()).optional(),
        since: z.string().transform((text) => text.length),
      }),
      concurrency: 'READ_ONLY',
      isConcurrencySafe: (input) => {
        expectTypeOf(input.limit).toEqualTypeOf<number>();
        return true;
      },
      execute: (input, context) => {
        expectTypeOf(input).toEqualTypeOf<{
          query: string;
          limit: number;
          tags?: string[] | undefined;
          since: number;
        }>();
        expectTypeOf(context.signal).toEqualTypeOf<AbortSignal>();
        expectTypeOf(context.idempotencyKey).toEqualTypeOf<string>();
        return Promise.resolve({ hits: [input.query] });
      },
    });
    expectTypeOf(tool).toEqualTypeOf<
      Tool<{ query: string; limit: number; tags?: string[] | undefined; since: number }, { hits: string[] }>
    >();
  });

  it('rejects an execute that reads a field the schema does not have', () => {
    defineTool({
      name: 'echo',
      description: 'Echoes.',
      inputSchema: z.object({ text: z.string() }),
      execute: (input) => {
        // @ts-expect-error `count` is not in the schema
        void input.count;
        return input.text;
      },
    });
  });

  it('lets a typed tool go into the registry', () => {
    const tool = defineTool({
      name: 'echo',
      description: 'Echoes.',
      inputSchema: z.object({ text: z.string() }),
      execute: ({ text }) => text,
    });
    expectTypeOf(tool).toExtend<AnyTool>();
    new ToolRegistry().register(tool);
  });
});
