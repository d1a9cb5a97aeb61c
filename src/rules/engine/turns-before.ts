import type { CoreRuleState } from '../rule-state';

/** Turns that came before the current one in the session. */
export function turnsBefore(state: CoreRuleState): number {
  return Math.max(0, state.turn - 1);
}
