import type { AnyTool } from '../tool';
import type { ToolExecutionContext } from '../tool-context';
import { ToolAbortError } from '../errors/tool-abort-error';
import type { AfterAbort, ToolExecutionEnd } from './after-abort';

/**
 * Runs `execute` under the caller's signal and a `timeoutMs` timer. Whichever ends first wins: a tool
 * that ignores its signal still yields an `aborted` end on time (its late result is discarded). A
 * tool that throws after its signal fired counts as aborted. With `afterAbort`, an aborted tool gets
 * `afterAbort.graceMs` to settle; if it does not, the end says `stillRunning` and its late return or
 * throw is reported to `afterAbort.onLateEnd`.
 */
export async function runToolExecution({
  tool,
  input,
  context,
  timeoutMs,
  afterAbort,
}: {
  tool: AnyTool;
  input: unknown;
  context: ToolExecutionContext;
  timeoutMs: number;
  afterAbort?: AfterAbort | undefined;
}): Promise<ToolExecutionEnd> {
  const timeout = new AbortController();
  const timer = setTimeout(() => {
    timeout.abort(
      new ToolAbortError({ code: 'TIMEOUT', message: `${tool.name} did not finish within ${timeoutMs} ms.` }),
    );
  }, timeoutMs);
  const signal = AbortSignal.any([context.signal, timeout.signal]);
  let stopListening = (): void => undefined;
  const aborted = new Promise<ToolExecutionEnd>((resolve) => {
    const onAbort = () => resolve({ kind: 'aborted', reason: signal.reason });
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    stopListening = () => signal.removeEventListener('abort', onAbort);
  });
  // The tool's own promise, and its end as the caller sees it (a throw after the abort counts as aborted).
  const execution = (async (): Promise<unknown> => tool.execute(input, { ...context, signal }))();
  const running = execution.then(
    (output): ToolExecutionEnd => ({ kind: 'returned', output }),
    (error: unknown): ToolExecutionEnd =>
      signal.aborted ? { kind: 'aborted', reason: signal.reason } : { kind: 'threw', error },
  );
  let end: ToolExecutionEnd;
  try {
    end = await Promise.race([running, aborted]);
  } finally {
    clearTimeout(timer);
    stopListening();
  }
  if (end.kind !== 'aborted' || afterAbort === undefined) return end;
  return awaitGrace(execution, end, afterAbort);
}

/** Gives an aborted tool `graceMs` to settle; else reports it still running, and its late return or throw later. */
async function awaitGrace(
  execution: Promise<unknown>,
  end: Extract<ToolExecutionEnd, { kind: 'aborted' }>,
  afterAbort: AfterAbort,
): Promise<ToolExecutionEnd> {
  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  const graceOver = new Promise<'grace-over'>((resolve) => {
    graceTimer = setTimeout(() => resolve('grace-over'), afterAbort.graceMs);
  });
  const settled = (): 'settled' => 'settled';
  const first = await Promise.race([execution.then(settled, settled), graceOver]);
  clearTimeout(graceTimer);
  if (first === 'settled') return end;
  afterAbort.onStillRunning();
  void execution
    .then(
      (output) => afterAbort.onLateEnd({ kind: 'returned', output }),
      (error: unknown) => afterAbort.onLateEnd({ kind: 'threw', error }),
    )
    .catch(() => undefined);
  return { ...end, stillRunning: true };
}
