import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import { toolActivityOptions } from '../src/dispatch';
import type { PreparedCall } from '../src/dispatch';
import type { DispatchedCall } from '../src/session';
import type { SessionActivities } from '../activities';
import { runActivityToolCall } from './activity-tool-call';
import { executeToolInput, traced, unpackExecutedCall, withStore } from './session';
import type { Session } from './session';

/**
 * Runs one call (in the caller's scope): toolrail's tool activity, or, for an activity tool, the
 * user's activity, whose result the turn stores with its results.
 */
export async function runCall(session: Session, prepared: PreparedCall, approved: boolean): Promise<DispatchedCall> {
  const { callId } = prepared;
  const target = prepared.execution.activity;
  if (target !== undefined) return traced(session, callId, () => runActivityToolCall(session, prepared, target));
  const input = executeToolInput(session.state, prepared, approved);
  // A store failure of the tool activity means the call did not run: it runs once the store is back.
  const executed = await withStore(session, () => traced(session, callId, () => executeToolActivity(prepared)(input)));
  return unpackExecutedCall(executed, prepared);
}

/** The activity that executes one prepared call, with the call's own options (`toolActivityOptions`). */
function executeToolActivity(prepared: PreparedCall): SessionActivities['executeTool'] {
  const { local, options } = toolActivityOptions(prepared);
  return (local ? proxyLocalActivities<SessionActivities>(options) : proxyActivities<SessionActivities>(options))
    .executeTool;
}
