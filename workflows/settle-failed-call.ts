import { CancellationScope, proxyLocalActivities } from '@temporalio/workflow';
import { mayHaveLostCompletion, outcomeFromActivityFailure } from '../src/dispatch';
import type { PreparedCall } from '../src/dispatch';
import type { DispatchedCall } from '../src/session';
import type { ExecutedCall, SessionActivities } from '../activities';
import type { Session } from './session';
import { sessionStoreInput, withStore } from './with-store';

/**
 * A call whose activity failed with `error`, in `turn`; `cancelledBy`: the interrupt or the sibling
 * that cancelled it.
 */
export interface FailedCall {
  turn: number;
  prepared: PreparedCall;
  error: unknown;
  cancelledBy: Parameters<typeof outcomeFromActivityFailure>[2];
}

/**
 * The outcome of a call whose activity failed: cancelled by an interrupt or a failing sibling, a
 * completion the server may have lost (looked up below), or the failure itself.
 */
export async function settleFailedCall(
  session: Session,
  { turn, prepared, error, cancelledBy }: FailedCall,
): Promise<DispatchedCall> {
  if (cancelledBy === undefined && mayHaveLostCompletion(prepared, error))
    return recoverLostCompletion(session, { turn, prepared, error, cancelledBy });
  return { outcome: outcomeFromActivityFailure(prepared, error, cancelledBy) };
}

/**
 * A call that runs once timed out after it started: it may have finished while its completion never
 * reached the server (the server was down when the worker reported it, or the worker died after the
 * tool returned). The record its activity keeps in the content store says: when there is one, the
 * call's real outcome is reported, with a transcript notice that it was recovered; when there is
 * none (or it cannot be read), a timeout that says the call may or may not have taken effect. The
 * lookup is not cancellable: the call is over, and a sibling's failure or an interrupt must not
 * change what is reported about it.
 */
async function recoverLostCompletion(session: Session, { turn, prepared, error }: FailedCall): Promise<DispatchedCall> {
  const { callId, toolName } = prepared;
  const input = { ...sessionStoreInput(session.state), turn, callId };
  let executed: ExecutedCall | null;
  try {
    // An unavailable store is waited for: the record may be there once it is back.
    ({ executed } = await CancellationScope.nonCancellable(() =>
      withStore(session, () => recordActivities.recoverToolCall(input)),
    ));
  } catch {
    return { outcome: outcomeFromActivityFailure(prepared, error, undefined, 'failed') };
  }
  if (executed === null) return { outcome: outcomeFromActivityFailure(prepared, error, undefined, 'not-found') };
  const text = `${toolName} (call ${callId}) finished, but the Temporal server never got its completion (its activity timed out); its outcome was recovered from the record the worker kept in the content store.`;
  session.emit({ type: 'notice', text });
  return executed;
}

/** Reads the record of a call from the content store: a quick lookup, retried like the other content reads. */
const recordActivities = proxyLocalActivities<SessionActivities>({
  startToCloseTimeout: 30_000,
  retry: { maximumAttempts: 5, initialInterval: 500, backoffCoefficient: 2, maximumInterval: 10_000 },
});
