import type { SessionStatusView, StoreProblem, UnavailableTool } from '../src/session';
import type { SessionState } from './session-state';

/** The answer of the `status` query, and the workflow's result: with the session's store, and what it waits for. */
export function statusView(state: SessionState): SessionStatusView {
  const { status, lastRunEnd, lastTool, counters, queuedMessages, usage, store, answer, workers } = state;
  const storeProblem = currentStoreProblem(state);
  return {
    status,
    lastRunEnd,
    lastTool,
    counters: { ...counters },
    queuedMessages: queuedMessages.length,
    usage,
    ...(answer === undefined ? {} : { answer }),
    ...(store.identity === undefined ? {} : { store: store.identity }),
    ...(storeProblem === undefined ? {} : { storeProblem }),
    ...(workers.waits.length === 0 ? {} : { workerWaits: [...workers.waits] }),
  };
}

/** Why the session waits for its content store now (the newest problem of the operations that wait), if it does. */
export function currentStoreProblem(state: SessionState): StoreProblem | undefined {
  return [...state.store.waits.values()].at(-1);
}

/** The tools of this turn's catalog that cannot run now (their MCP server is down), with the reason. */
export function unavailableTools(state: SessionState): UnavailableTool[] {
  return state.catalog.tools.flatMap(({ name, unavailable }) =>
    unavailable === undefined ? [] : [{ toolName: name, reason: unavailable }],
  );
}
