import type { CompiledRuleSet } from '../compiled-rule-set';
import { ruleKindModule } from '../kinds/registered-rule-kinds';
import type { RuleState, RuleStateDraft } from '../rule-state';
import { slotZeros } from '../slot-array';
import { ruleIndex } from './rule-index';

/**
 * A user message starts a new run: run-scoped counts and completions start over, the run's end is
 * cleared (init rules apply again), and each kind starts its own fields over (run-scoped sequences;
 * step conditions on the message are evaluated).
 */
export function startRun(rules: CompiledRuleSet, state: RuleState, event: { userMessage: string }): RuleState {
  const index = ruleIndex(rules);
  const draft: RuleStateDraft = {
    ...state,
    run: state.run + 1,
    runTurns: 0,
    ended: null,
    endedBy: null,
    runCompleted: 0,
    last: null,
    attemptsRun: slotZeros(index.attemptsRunSlot.size),
    doneRun: slotZeros(index.doneRunSlot.size),
  };
  for (const [kind, own] of index.kinds) {
    ruleKindModule(kind)?.startRun(draft, own, { message: event.userMessage, index });
  }
  return draft;
}
