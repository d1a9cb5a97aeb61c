import type { AnyTool } from '../tool';
import type { ToolExecutionContext } from '../tool-context';
import { ToolAbortError } from '../errors/tool-abort-error';

/** How running a tool ended. */
export type ToolExecutionEnd =
  | { readonly kind: 'returned'; readonly output: unknown }
  | { readonly kind: 'threw'; readonly error: unknown }
  | { readonly kind: 'aborted'; readonly reason: unknown };

/**
 * Runs `execute` under the caller's signal and a `timeoutMs` timer. Whichever ends first wins: a tool
 * that ignores its signal still yields an `aborted` end on time (its late result is discarded). A
 * tool that throws after its signal fired counts as aborted.
 */
export async function runToolExecution({
  tool,
  input,
  context,
  timeoutMs,
}: {
  tool: AnyTool;
  input: unknown;
  context: ToolExecutionContext;
  timeoutMs: number;
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
  const running = (async (): Promise<ToolExecutionEnd> => {
    try {
      return { kind: 'returned', output: await tool.execute(input, { ...context, signal }) };
    } catch (error) {
      return signal.aborted ? { kind: 'aborted', reason: signal.reason } : { kind: 'threw', error };
    }
  })();
  try {
    return await Promise.race([running, aborted]);
  } finally {
    clearTimeout(timer);
    stopListening();
  }
}
