import type { CompiledRuleSet } from '../compiled-rule-set';
import type { RuleState } from '../rule-state';

/**
 * A model response (turn) begins: call it before narrowing for that turn. Counts the turn in the session
 * and the run; a run that already used `maxTurnsPerRun` turns ends with `turn_limit` instead.
 */
export function beginTurn(rules: CompiledRuleSet, state: RuleState): RuleState {
  if (state.ended === null && state.runTurns >= rules.settings.maxTurnsPerRun) return { ...state, ended: 'turn_limit' };
  return { ...state, turn: state.turn + 1, runTurns: state.runTurns + 1 };
}
