import type { CompiledRuleOf, CompiledRuleSet } from '../compiled-rule-set';
import { canonicalJson } from '../paths/canonical-json';
import { resolveJsonPath } from '../paths/json-path';
import type { Capture, ConditionalDecision, RuleState } from '../rule-state';
import { withCapture } from '../capture-table';
import { maxBoundResources } from '../rule-state';
import type { SlotArray } from '../slot-array';
import { slotValue, slotWith } from '../slot-array';
import { evaluationContext } from './evaluation-context';
import { nextState } from './next-state';
import { decideConditional } from './match-conditional';
import { firstFailedCondition } from './output-conditions';
import type { RuleIndex } from './rule-index';
import { positionTools, ruleIndex, toolRules } from './rule-index';
import { selectActiveSteps } from './select-active-steps';

/** What happened to one allowed call. */
export interface CallOutcome {
  readonly tool: string;
  readonly args: unknown;
  readonly result: unknown;
  /** True when the tool ran and failed: it counts as an attempt but satisfies nothing. */
  readonly error: boolean;
}

function increment(values: SlotArray, slot: number | undefined): SlotArray {
  return slot === undefined ? values : slotWith(values, slot, slotValue(values, slot) + 1);
}

function flag(values: SlotArray, slot: number | undefined, value: number): SlotArray {
  return slot === undefined || slotValue(values, slot) !== 0 ? values : slotWith(values, slot, value);
}

function captureOutputs(index: RuleIndex, rules: CompiledRuleSet, state: RuleState, outcome: CallOutcome) {
  const capturedFor = toolRules(index, outcome.tool).capturedFor;
  if (capturedFor.length === 0) return state.captures;
  const next = state.captures.slice();
  const keys = new Map<string, string | null>();
  for (const i of capturedFor) {
    const rule = rules.rules[i] as CompiledRuleOf<'precondition'>;
    const slot = index.captureSlot.get(i);
    const table = slot === undefined ? undefined : next[slot];
    if (slot === undefined || table === undefined) continue;
    let key: string | null = null;
    if (rule.resource !== undefined) {
      const path = rule.resource.path;
      if (!keys.has(path)) {
        const bound = resolveJsonPath(outcome.args, path);
        keys.set(path, bound.found ? canonicalJson(bound.value) : null);
      }
      key = keys.get(path) ?? null;
      if (key === null) continue;
    }
    const verdict = firstFailedCondition(rule.with_output ?? [], outcome.result);
    const capture: Capture = { key, failed: verdict.failed, got: verdict.got, seq: state.completed };
    next[slot] = withCapture(table, capture, maxBoundResources);
  }
  return next;
}

function advanceSequences(index: RuleIndex, rules: CompiledRuleSet, state: RuleState, tool: string) {
  const inSequences = toolRules(index, tool).inSequences;
  let next: number[] | null = null;
  for (const slot of inSequences) {
    const rule = rules.rules[index.sequences[slot] ?? 0] as CompiledRuleOf<'sequence'>;
    const position = state.sequences[slot] ?? 0;
    const expected = rule.positions[position];
    if (expected === undefined || !positionTools(expected).includes(tool)) continue;
    next ??= state.sequences.slice();
    next[slot] = position + 1;
  }
  return next ?? state.sequences;
}

function advanceSteps(index: RuleIndex, rules: CompiledRuleSet, state: RuleState, tool: string) {
  let changed = false;
  const next = state.orchestrations.map((orchestration, o) => {
    const steps = index.orchestrations[o]?.steps;
    if (orchestration.active === null || steps === undefined) return orchestration;
    const step = rules.rules[steps[orchestration.active] ?? 0] as CompiledRuleOf<'step'>;
    const expected = step.sequence?.[orchestration.position];
    if (expected === undefined || !positionTools(expected).includes(tool)) return orchestration;
    changed = true;
    return { ...orchestration, position: orchestration.position + 1 };
  });
  return changed ? next : state.orchestrations;
}

function requiredPending(index: RuleIndex, rules: CompiledRuleSet, doneRun: SlotArray): boolean {
  for (const i of index.requiredRules) {
    const rule = rules.rules[i] as CompiledRuleOf<'required_before_exit'>;
    const slot = index.doneRunSlot.get(rule.tool);
    if (slot !== undefined && slotValue(doneRun, slot) !== 1) return true;
  }
  return false;
}

/**
 * The state after a call that the rules allowed and that ran. Every attempt counts toward `max_count`;
 * only a completed call (`error: false`) satisfies prerequisites, advances sequences and steps, fires
 * `forbids_after`, feeds conditional and output rules, and ends the run if its tool is terminal (unless
 * a `required_before_exit` tool is still missing, as in Letta). Work is proportional to the rules that
 * mention the tool. Never call it for a blocked call.
 */
export function record(rules: CompiledRuleSet, state: RuleState, outcome: CallOutcome): RuleState {
  const index = ruleIndex(rules);
  const { tool } = outcome;
  const attemptsRun = increment(state.attemptsRun, index.attemptsRunSlot.get(tool));
  const attemptsSession = increment(state.attemptsSession, index.attemptsSessionSlot.get(tool));
  if (outcome.error) return nextState(state, { attemptsRun, attemptsSession });

  const rulesOfTool = toolRules(index, tool);
  let forbidden = state.forbidden;
  for (const i of rulesOfTool.forbidsAfter) {
    for (const name of (rules.rules[i] as CompiledRuleOf<'forbids_after'>).forbids) {
      forbidden = flag(forbidden, index.forbidSlot.get(name), i + 1);
    }
  }
  const conditional: ConditionalDecision[] = rulesOfTool.conditionals.map((i) =>
    decideConditional(i, rules.rules[i] as CompiledRuleOf<'conditional'>, outcome.result),
  );
  const doneRun = flag(state.doneRun, index.doneRunSlot.get(tool), 1);
  let next = nextState(state, {
    runCompleted: state.runCompleted + 1,
    completed: state.completed + 1,
    last: { tool, conditional },
    attemptsRun,
    attemptsSession,
    doneRun,
    doneSession: flag(state.doneSession, index.doneSessionSlot.get(tool), 1),
    forbidden,
    sequences: advanceSequences(index, rules, state, tool),
    captures: captureOutputs(index, rules, state, outcome),
  });
  if (index.orchestrations.length > 0) {
    const recent = index.recentLength > 0 ? [...state.recent, tool].slice(-index.recentLength) : state.recent;
    next = nextState(next, { recent, orchestrations: advanceSteps(index, rules, next, tool) });
    next = nextState(next, { orchestrations: selectActiveSteps(evaluationContext(rules, next)) });
  }
  if (rulesOfTool.terminal !== null && !requiredPending(index, rules, doneRun)) {
    next = nextState(next, { ended: 'terminal', endedBy: rulesOfTool.terminal });
  }
  return next;
}
