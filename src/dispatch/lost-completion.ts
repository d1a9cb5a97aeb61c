import { ActivityFailure, TimeoutFailure, TimeoutType } from '@temporalio/common';
import type { PreparedCall } from './prepared-call';
import { toolActivityOptions } from './tool-activity-options';

/**
 * Whether a tool activity that failed may have finished with its completion lost: the call is not
 * retried (its one attempt is all there is), it ran as a regular activity, and it timed out after it
 * started (start-to-close or heartbeat). Its completion may never have reached the server (the
 * server was down when the worker reported it, or the worker died after the tool returned), so the
 * workflow looks up the record the tool activity keeps of every such call before it reports a
 * timeout. A call that never started (schedule-to-start) or that is retried is never looked up.
 */
export function mayHaveLostCompletion(prepared: PreparedCall, error: unknown): boolean {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (!(cause instanceof TimeoutFailure)) return false;
  if (cause.timeoutType !== TimeoutType.START_TO_CLOSE && cause.timeoutType !== TimeoutType.HEARTBEAT) return false;
  return isRecordedCall(prepared);
}

/**
 * Whether the tool activity keeps a record of this call's outcome in the content store: every call
 * that is not retried and runs as a regular activity (a local activity's completion travels with the
 * workflow task, and a retried call runs again instead).
 */
export function isRecordedCall(prepared: PreparedCall): boolean {
  const { execution } = prepared;
  // The user's activity (an activity tool) keeps no record: its timeout is reported as such.
  return (
    execution.activity === undefined && execution.retry.maximumAttempts <= 1 && !toolActivityOptions(prepared).local
  );
}
