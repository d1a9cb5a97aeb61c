import type { RuleState, RunEnd } from '../rule-state';

/**
 * Marks the run as over (a text answer was accepted, or narrowing ended it); calls stay refused
 * until the next user message.
 */
export function endRun(state: RuleState, reason: Exclude<RunEnd, 'terminal'>): RuleState {
  return state.ended === null ? { ...state, ended: reason } : state;
}

/** Whether the run is over: a terminal tool completed, an answer was accepted, or a limit ended it. */
export function isRunEnded(state: RuleState): boolean {
  return state.ended !== null;
}
