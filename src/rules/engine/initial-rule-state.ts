import type { CompiledRuleSet } from '../compiled-rule-set';
import type { RuleState } from '../rule-state';
import { emptyCaptureTable } from '../capture-table';
import { slotZeros } from '../slot-array';
import { evaluationContext } from './evaluation-context';
import { nextState } from './next-state';
import { ruleIndex } from './rule-index';
import { evaluateMessages, selectActiveSteps } from './select-active-steps';

/** An array of `length` zeros. */
export function zeros(length: number): number[] {
  return new Array<number>(length).fill(0);
}

/** The state of a new session: nothing called, no run started yet (calls before any user message belong to a first run). */
export function initialRuleState(rules: CompiledRuleSet): RuleState {
  const index = ruleIndex(rules);
  const messages = evaluateMessages(rules, '');
  const state: RuleState = {
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
    forbidden: slotZeros(index.forbidSlot.size),
    sequences: zeros(index.sequences.length),
    captures: index.captureRules.map(() => emptyCaptureTable()),
    orchestrations: index.orchestrations.map((_, o) => ({ active: null, position: 0, messageOk: messages[o] ?? [] })),
    recent: [],
  };
  return nextState(state, { orchestrations: selectActiveSteps(evaluationContext(rules, state)) });
}
