import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { defineTool } from '../../src/tools/define-tool';
import type { AnyTool } from '../../src/tools/tool';

/** Name prefix of the tools that run as local activities. */
export const localToolPrefix = 'local_';

/**
 * The benchmark's tools: a read-only no-op, and a read-only call that waits `delay_ms`; each twice,
 * once as a normal activity and once (`local_…`) as a local activity.
 */
export function createBenchTools(): AnyTool[] {
  return [false, true].flatMap((localActivity) => {
    const prefix = localActivity ? localToolPrefix : '';
    return [
      defineTool({
        name: `${prefix}noop`,
        description: 'Does nothing.',
        inputSchema: z.object({ index: z.number() }),
        concurrency: 'READ_ONLY',
        localActivity,
        execute: ({ index }) => ({ index }),
      }),
      defineTool({
        name: `${prefix}wait`,
        description: 'Waits, then returns.',
        inputSchema: z.object({ delay_ms: z.number() }),
        concurrency: 'READ_ONLY',
        localActivity,
        execute: async ({ delay_ms }, { signal }) => {
          await sleep(delay_ms, undefined, { signal });
          return { waited: delay_ms };
        },
      }),
    ];
  });
}
