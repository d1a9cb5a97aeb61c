import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import { readsOutput } from '../src/rules';
import { toolActivityOptions } from '../src/dispatch';
import type { PreparedCall } from '../src/dispatch';
import type { DispatchedCall } from '../src/session';
import type { ExecuteToolInput, SessionActivities } from '../activities';
import { runActivityToolCall } from './activity-tool-call';
import { traced } from './session';
import type { Session } from './session';
import { sessionStoreInput, withStore } from './with-store';

/**
 * Runs one call in the caller's scope: toolrail's tool activity, or, for an activity tool, the
 * user's activity, whose result the turn stores with its results. Not an `async` function: it
 * hands on the activity's promise rather than make another (the caller's scope turns a throw into
 * a rejection).
 */
export function runCall(session: Session, prepared: PreparedCall, approved: boolean): Promise<DispatchedCall> {
  const { state } = session;
  const { callId, toolName } = prepared;
  const target = prepared.execution.activity;
  if (target !== undefined) return traced(session, callId, () => runActivityToolCall(session, prepared, target));
  const input: ExecuteToolInput = {
    ...sessionStoreInput(state),
    turn: state.turnIndex,
    call: prepared,
    interactive: state.interactive,
    approved,
    rulesReadOutput: readsOutput(state.rules, toolName),
  };
  // A store failure of the tool activity means the call did not run: it runs once the store is back.
  return withStore(session, () => traced(session, callId, () => executeToolActivity(prepared)(input)));
}

/** The activity that executes one prepared call, with the call's own options (`toolActivityOptions`). */
function executeToolActivity(prepared: PreparedCall): SessionActivities['executeTool'] {
  const { local, options } = toolActivityOptions(prepared);
  return (local ? proxyLocalActivities<SessionActivities>(options) : proxyActivities<SessionActivities>(options))
    .executeTool;
}
