import type { CompiledRuleSet } from '../compiled-rule-set';
import { ruleKindModule } from '../kinds/registered-rule-kinds';
import type { CoreRuleState, RuleState } from '../rule-state';
import { slotZeros } from '../slot-array';
import { ruleIndex } from './rule-index';

/**
 * The state of a new session: nothing called, no run started yet (calls before any user message belong
 * to a first run). The shared fields, then each kind's, in the registry's order.
 */
export function initialRuleState(rules: CompiledRuleSet): RuleState {
  const index = ruleIndex(rules);
  const core: CoreRuleState = {
    version: 1,
    run: 0,
    turn: 0,
    runTurns: 0,
    ended: null,
    endedBy: null,
    runCompleted: 0,
    completed: 0,
    last: null,
    attemptsRun: slotZeros(index.attemptsRunSlot.size),
    attemptsSession: slotZeros(index.attemptsSessionSlot.size),
    doneRun: slotZeros(index.doneRunSlot.size),
    doneSession: slotZeros(index.doneSessionSlot.size),
  };
  const state: Record<string, unknown> = { ...core };
  for (const [kind, own] of index.kinds) {
    Object.assign(state, ruleKindModule(kind)?.initialState(own, { index, state: core }));
  }
  return state as unknown as RuleState;
}
