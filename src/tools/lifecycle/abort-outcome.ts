import { createToolErrorOutcome, ToolErrorCode } from '../../dispatch';
import type { ToolErrorOutcome } from '../../dispatch';
import { ToolAbortError } from '../errors/tool-abort-error';

/**
 * The outcome of an aborted call, by abort reason: a `ToolAbortError` gives its code and message, a
 * `TimeoutError` (as from `AbortSignal.timeout`) gives `TIMEOUT`, anything else `INTERRUPTED`. Only a
 * timeout is retryable, and only when the call may be retried.
 */
export function abortOutcome({
  callId,
  toolName,
  reason,
  retryAllowed,
}: {
  callId: string;
  toolName: string;
  reason: unknown;
  retryAllowed: boolean;
}): ToolErrorOutcome {
  if (ToolAbortError.isInstance(reason)) {
    const code = ToolErrorCode[reason.code];
    return createToolErrorOutcome({
      callId,
      toolName,
      code,
      message: reason.message,
      retryable: code === ToolErrorCode.TIMEOUT && retryAllowed,
    });
  }
  if (reason instanceof Error && reason.name === 'TimeoutError') {
    return createToolErrorOutcome({
      callId,
      toolName,
      code: ToolErrorCode.TIMEOUT,
      message: `${toolName} took longer than its time limit.`,
      retryable: retryAllowed,
    });
  }
  return createToolErrorOutcome({
    callId,
    toolName,
    code: ToolErrorCode.INTERRUPTED,
    message: `The ${toolName} call was interrupted before it finished; its result is unknown.`,
    retryable: false,
  });
}
