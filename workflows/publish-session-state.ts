import { setCurrentDetails, upsertSearchAttributes } from '@temporalio/workflow';
import { narrow } from '../src/rules';
import type { NarrowResult } from '../src/rules';
import { renderCurrentDetails, sessionSearchAttributes } from '../src/session';
import type { SessionStatus, StoreProblem } from '../src/session';
import type { SessionState } from './session-state';

const published = new WeakMap<SessionState, string>();

/**
 * The status the session shows: `waiting_for_store` while an operation waits for the content store
 * (over whatever it was doing, which it goes back to), else its own. An ended session shows its end.
 */
export function shownStatus(state: SessionState): SessionStatus {
  const ended = state.status === 'completed' || state.status === 'failed';
  return state.storeWaits.size > 0 && !ended ? 'waiting_for_store' : state.status;
}

/** Why the session waits for its content store (the newest problem of the operations that wait), or `undefined`. */
export function currentStoreProblem(state: SessionState): StoreProblem | undefined {
  let newest: StoreProblem | undefined;
  for (const problem of state.storeWaits.values()) newest = problem;
  return newest;
}

/** Shows the session in the Temporal UI: its search attributes (upserted when they changed) and the current details. */
export function publishSessionState(state: SessionState): void {
  const { lastTool, counters, lastRunEnd, run } = state;
  const status = shownStatus(state);
  const pendingApprovals = [...state.pendingApprovals.values()];
  const values = { status, lastTool, blockedCalls: counters.blockedCalls, pendingApprovals: pendingApprovals.length };
  const fingerprint = JSON.stringify(values);
  if (published.get(state) !== fingerprint) upsertSearchAttributes(sessionSearchAttributes(values));
  published.set(state, fingerprint);
  const catalog = state.catalog.tools.map((tool) => tool.name);
  const narrowed = (): NarrowResult => narrow(state.rules, state.ruleState, catalog);
  const storeProblem = currentStoreProblem(state);
  const view = {
    status,
    counters,
    pendingApprovals,
    lastRunEnd,
    runInProgress: run.inProgress,
    narrowed,
    ...(storeProblem === undefined ? {} : { storeProblem }),
  };
  setCurrentDetails(renderCurrentDetails(view));
}
