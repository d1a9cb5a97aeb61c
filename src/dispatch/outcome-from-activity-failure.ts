import { ActivityFailure, ApplicationFailure, CancelledFailure, TimeoutFailure } from '@temporalio/common';
import { createToolErrorOutcome } from './create-tool-error-outcome';
import type { PreparedCall } from './prepared-call';
import { ToolErrorCode } from './tool-error-code';
import type { ToolErrorOutcome } from './tool-outcome';

/**
 * The type of the failure a tool activity reports when the session's cancellation reached it
 * through the live channel, before Temporal's did: the workflow reads it as the cancellation it is.
 */
export const CALL_CANCELLED_FAILURE_TYPE = 'CallCancelled';

/** Who cancelled a running call: the user's interrupt, or the sibling whose failure cancelled its batch. */
export type CallCanceller = 'interrupt' | { readonly callId: string; readonly toolName: string } | undefined;

/**
 * What the workflow learnt when it looked for the record of a timed-out call that may have finished
 * (`mayHaveLostCompletion`): none was written, or the lookup failed.
 */
export type CompletionLookup = 'not-found' | 'failed';

/**
 * The error outcome the model reads for a tool activity that failed, timed out or was cancelled:
 * a cancellation says who cancelled it, a timeout says whether the call may have taken effect (a
 * destructive call, or one whose record of completion was looked up and not found), anything else
 * carries the failure's message.
 */
export function outcomeFromActivityFailure(
  prepared: PreparedCall,
  error: unknown,
  cancelledBy: CallCanceller,
  lookup?: CompletionLookup,
): ToolErrorOutcome {
  const base = { callId: prepared.callId, toolName: prepared.toolName };
  const cause = error instanceof ActivityFailure ? error.cause : error;
  const cancelled =
    cause instanceof CancelledFailure ||
    (cause instanceof ApplicationFailure && cause.type === CALL_CANCELLED_FAILURE_TYPE && cancelledBy !== undefined);
  if (cancelled) {
    if (typeof cancelledBy === 'object') {
      const message = `Cancelled because ${cancelledBy.toolName} (call ${cancelledBy.callId}) failed in the same batch. Its result was discarded; call it again if you still need it.`;
      return createToolErrorOutcome({ ...base, code: ToolErrorCode.SIBLING_ABORTED, message });
    }
    const message = 'Interrupted by the user before it finished; its result was discarded.';
    return createToolErrorOutcome({ ...base, code: ToolErrorCode.INTERRUPTED, message });
  }
  if (cause instanceof TimeoutFailure) {
    const maybe =
      prepared.destructive || lookup !== undefined
        ? '. It may or may not have taken effect: it is not retried automatically'
        : '';
    const looked =
      lookup === 'not-found'
        ? ', and no record of its completion was found (it may still be running, or have stopped before it finished)'
        : lookup === 'failed'
          ? ', and its record of completion could not be read from the content store'
          : '';
    const message = `${prepared.toolName} did not finish in time (${cause.timeoutType ?? 'timeout'})${maybe}${looked}.`;
    return createToolErrorOutcome({ ...base, code: ToolErrorCode.TIMEOUT, message });
  }
  const message = cause instanceof ApplicationFailure || cause instanceof Error ? cause.message : String(cause);
  return createToolErrorOutcome({
    ...base,
    code: ToolErrorCode.EXECUTION_ERROR,
    message: `${prepared.toolName} failed: ${message}`,
  });
}
