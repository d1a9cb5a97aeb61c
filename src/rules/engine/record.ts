import type { CompiledRuleSet } from '../compiled-rule-set';
import type { RuleState, RuleStateDraft } from '../rule-state';
import type { SlotArray } from '../slot-array';
import { slotValue, slotWith } from '../slot-array';
import type { CallOutcome } from './call-outcome';
import { ruleIndex } from './rule-index';
import type { Recorder } from './rule-index-types';

const noDecisions: readonly [] = [];
const noRecorders: readonly Recorder[] = [];

function increment(values: SlotArray, slot: number | undefined): SlotArray {
  return slot === undefined ? values : slotWith(values, slot, slotValue(values, slot) + 1);
}

function flag(values: SlotArray, slot: number | undefined): SlotArray {
  return slot === undefined || slotValue(values, slot) !== 0 ? values : slotWith(values, slot, 1);
}

/**
 * The state after a call that the rules allowed and that ran. Every attempt counts toward the tool's
 * attempt counts; only a completed call (`error: false`) is the last completed call, sets the tool's
 * completion flags, and is recorded by the kinds that registered for it (`forbids_after` fires,
 * sequences and steps advance, conditional and output rules read the result, a terminal tool ends the
 * run unless a `required_before_exit` tool is still missing, as in Letta). Work is proportional to the
 * rules that mention the tool. Never call it for a blocked call.
 */
export function record(rules: CompiledRuleSet, state: RuleState, outcome: CallOutcome): RuleState {
  const index = ruleIndex(rules);
  const { tool } = outcome;
  const draft: RuleStateDraft = { ...state };
  draft.attemptsRun = increment(state.attemptsRun, index.attemptsRunSlot.get(tool));
  draft.attemptsSession = increment(state.attemptsSession, index.attemptsSessionSlot.get(tool));
  if (outcome.error) return draft;
  draft.runCompleted = state.runCompleted + 1;
  draft.completed = state.completed + 1;
  draft.last = { tool, conditional: noDecisions };
  draft.doneRun = flag(state.doneRun, index.doneRunSlot.get(tool));
  draft.doneSession = flag(state.doneSession, index.doneSessionSlot.get(tool));
  const recorders = index.recorders.get(tool) ?? noRecorders;
  if (recorders.length === 0 && index.everyRecorders.length === 0) return draft;
  const context = { rules, index, previous: state };
  for (const recorder of recorders) recorder.record(draft, outcome, context);
  for (const recorder of index.everyRecorders) recorder.record(draft, outcome, context);
  return draft;
}
