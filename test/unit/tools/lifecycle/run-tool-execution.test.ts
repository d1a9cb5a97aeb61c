import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../../../src/tools/define-tool';
import type { ToolExecutionEnd } from '../../../../src/tools/lifecycle/after-abort';
import { runToolExecution } from '../../../../src/tools/lifecycle/run-tool-execution';
import type { ToolExecutionContext } from '../../../../src/tools/tool-context';

type LateEnd = Extract<ToolExecutionEnd, { kind: 'returned' | 'threw' }>;

/**
 * Runs a tool that ignores its abort signal, aborts it once it started, and then lets it end as
 * `finish` says; resolves to the run's end and what was reported when the tool finally settled.
 */
async function abortWhileRunning(
  finish: (settle: { resolve: (output: string) => void; reject: (error: Error) => void }) => void,
): Promise<{ result: ToolExecutionEnd; late: LateEnd }> {
  let settle: { resolve: (output: string) => void; reject: (error: Error) => void } | undefined;
  let markStarted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const tool = defineTool({
    name: 'stubborn',
    description: 'Ignores its abort signal.',
    inputSchema: z.object({}),
    concurrency: 'READ_ONLY',
    execute: () =>
      new Promise<string>((resolve, reject) => {
        settle = { resolve, reject };
        markStarted();
      }),
  });
  const controller = new AbortController();
  let report: (end: LateEnd) => void = () => undefined;
  const reported = new Promise<LateEnd>((resolve) => (report = resolve));
  const context = { sessionId: 's', interactive: false, signal: controller.signal } as unknown as ToolExecutionContext;
  const ended = runToolExecution({
    tool,
    input: {},
    context,
    timeoutMs: 60_000,
    afterAbort: { graceMs: 0, onStillRunning: () => undefined, onLateEnd: report },
  });
  await started;
  controller.abort(new Error('user interrupt'));
  const result = await ended;
  if (settle === undefined) throw new Error('the tool never started');
  finish(settle);
  return { result, late: await reported };
}

describe('a tool that ignores its abort signal', () => {
  it('is reported aborted and still running, then its late throw is reported with its own error', async () => {
    const { result, late } = await abortWhileRunning((finish) => finish.reject(new Error('boom')));
    expect(result).toMatchObject({ kind: 'aborted', stillRunning: true });
    expect(late.kind).toBe('threw');
    expect(late.kind === 'threw' && (late.error as Error).message).toBe('boom');
  });

  it('has its late return reported with its output', async () => {
    const { late } = await abortWhileRunning((finish) => finish.resolve('done anyway'));
    expect(late).toEqual({ kind: 'returned', output: 'done anyway' });
  });
});
