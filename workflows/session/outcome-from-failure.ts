import { ActivityFailure, ApplicationFailure, TimeoutFailure, isCancellation } from '@temporalio/workflow';
import { ToolErrorCode } from '../../src/dispatch/tool-error-code';
import type { PreparedCall } from '../../src/dispatch/prepared-call';
import type { ToolErrorOutcome } from '../../src/dispatch/tool-outcome';

/** Why a running call was cancelled, when it was. */
export type CancelCause = { kind: 'interrupt' } | { kind: 'sibling'; callId: string; toolName: string } | undefined;

/** Turns the failure of a tool activity into the error outcome the model reads. */
export function outcomeFromFailure(prepared: PreparedCall, error: unknown, cancelCause: CancelCause): ToolErrorOutcome {
  const base = { type: 'tool-error', callId: prepared.callId, toolName: prepared.toolName } as const;
  if (isCancellation(error)) {
    if (cancelCause?.kind === 'sibling') {
      return {
        ...base,
        code: ToolErrorCode.SIBLING_ABORTED,
        message: `Cancelled because ${cancelCause.toolName} (call ${cancelCause.callId}) failed in the same batch. Its result was discarded; call it again if you still need it.`,
      };
    }
    return {
      ...base,
      code: ToolErrorCode.INTERRUPTED,
      message: 'Interrupted by the user before it finished; its result was discarded.',
    };
  }
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof TimeoutFailure) {
    return {
      ...base,
      code: ToolErrorCode.TIMEOUT,
      message: `${prepared.toolName} did not finish in time (${cause.timeoutType ?? 'timeout'})${
        prepared.destructive ? '. It may or may not have taken effect: it is not retried automatically' : ''
      }.`,
    };
  }
  const message = cause instanceof ApplicationFailure || cause instanceof Error ? cause.message : String(cause);
  return { ...base, code: ToolErrorCode.EXECUTION_ERROR, message: `${prepared.toolName} failed: ${message}` };
}
