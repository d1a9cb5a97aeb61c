import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../../src/tools/define-tool';
import { ToolRegistry } from '../../../src/tools/tool-registry';
import { readWorkerModule } from '../../../src/worker/worker-module';

const echo = defineTool({ name: 'echo', description: 'Echoes.', inputSchema: z.object({}), execute: () => 'echo' });

describe('readWorkerModule', () => {
  it('takes a list of tools, or a registry (where MCP servers keep theirs)', () => {
    const registry = new ToolRegistry([echo]);
    expect(readWorkerModule({ default: { tools: [echo] } }, 'a.mjs').tools).toEqual([echo]);
    expect(readWorkerModule({ default: { tools: registry } }, 'b.mjs').tools).toBe(registry);
  });

  it('refuses a module without tools, naming the file', () => {
    expect(() => readWorkerModule({ default: { tool: [echo] } }, 'c.mjs')).toThrow(
      'c.mjs: expected a default export { tools: [...] or a ToolRegistry, models?, modelRegistry?, scriptedModels?, hooks? }',
    );
  });
});
