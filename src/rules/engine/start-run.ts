import type { CompiledRuleOf, CompiledRuleSet } from '../compiled-rule-set';
import type { RuleState } from '../rule-state';
import { slotZeros } from '../slot-array';
import { evaluationContext } from './evaluation-context';
import { nextState } from './next-state';
import { ruleIndex } from './rule-index';
import { evaluateMessages, selectActiveSteps } from './select-active-steps';

/**
 * A user message starts a new run: run-scoped counts, completions and sequences start over, init
 * rules apply again, the run's end is cleared, and step conditions on the message are evaluated.
 */
export function startRun(rules: CompiledRuleSet, state: RuleState, event: { userMessage: string }): RuleState {
  const index = ruleIndex(rules);
  const sequences = index.sequences.map((i, slot) =>
    (rules.rules[i] as CompiledRuleOf<'sequence'>).scope === 'run' ? 0 : (state.sequences[slot] ?? 0),
  );
  const messages = evaluateMessages(rules, event.userMessage);
  const next = nextState(state, {
    run: state.run + 1,
    runTurns: 0,
    ended: null,
    endedBy: null,
    runCompleted: 0,
    last: null,
    attemptsRun: slotZeros(index.attemptsRunSlot.size),
    doneRun: slotZeros(index.doneRunSlot.size),
    sequences,
    orchestrations: state.orchestrations.map((orchestration, o) => ({
      ...orchestration,
      messageOk: messages[o] ?? [],
    })),
  });
  return nextState(next, { orchestrations: selectActiveSteps(evaluationContext(rules, next)) });
}
