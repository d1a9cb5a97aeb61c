import type { CompiledRuleOf, CompiledRuleSet } from '../compiled-rule-set';
import type { Reason } from '../reason';
import type { RuleRef } from '../rule-ref';
import type { RuleState, RunEnd } from '../rule-state';
import type { SlotArray } from '../slot-array';
import { slotValue } from '../slot-array';
import { checkEnd } from './check-end';
import { narrow } from './narrow';
import { positionTools, ruleIndex } from './rule-index';

/** A readable view of the rule state, for the `ruleState` query and `toolrail state`. Plain JSON. */
export interface RuleStateView {
  readonly run: number;
  readonly turn: number;
  readonly runTurns: number;
  readonly ended: RunEnd | null;
  readonly visible: string[];
  readonly hidden: { tool: string; reasons: Reason[] }[];
  /** Tools forbidden for the rest of the session, with the rule that forbade each. */
  readonly forbidden: { tool: string; by: RuleRef }[];
  /** Attempts of every tool a `max_count` rule limits, with its limit. */
  readonly counts: { tool: string; scope: 'run' | 'session'; count: number; limit: number; rule: RuleRef }[];
  readonly sequences: { rule: RuleRef; position: number; length: number; expected: string[] | null }[];
  readonly steps: { file: string; active: string | null; position: number; expected: string[] | null }[];
  /** Tools tracked by rules that completed in this run / in the session. */
  readonly completedInRun: string[];
  readonly completedInSession: string[];
  readonly lastCompleted: string | null;
  /** Whether a text answer would be accepted now, and if not why. */
  readonly endCheck: { endsRun: boolean; reasons: Reason[] };
}

function setNames(slots: Map<string, number>, values: SlotArray): string[] {
  return [...slots]
    .filter(([, slot]) => slotValue(values, slot) === 1)
    .map(([tool]) => tool)
    .sort();
}

/** Describes the state for humans and tools: what is visible and why the rest is hidden, counts, positions. */
export function describeRuleState(rules: CompiledRuleSet, state: RuleState, catalog: readonly string[]): RuleStateView {
  const index = ruleIndex(rules);
  const narrowed = narrow(rules, state, catalog);
  const forbidden = [...index.forbidSlot].flatMap(([tool, slot]) => {
    const rule = rules.rules[slotValue(state.forbidden, slot) - 1];
    return rule === undefined ? [] : [{ tool, by: rule.ref }];
  });
  forbidden.sort((a, b) => (a.tool < b.tool ? -1 : 1));
  const counts = rules.rules.flatMap((rule) => {
    if (rule.kind !== 'max_count') return [];
    const slot = (rule.scope === 'run' ? index.attemptsRunSlot : index.attemptsSessionSlot).get(rule.tool) ?? 0;
    const count = slotValue(rule.scope === 'run' ? state.attemptsRun : state.attemptsSession, slot);
    return [{ tool: rule.tool, scope: rule.scope, count, limit: rule.limit, rule: rule.ref }];
  });
  const sequences = index.sequences.map((i, slot) => {
    const rule = rules.rules[i] as CompiledRuleOf<'sequence'>;
    const position = state.sequences[slot] ?? 0;
    const expected = rule.positions[position];
    return {
      rule: rule.ref,
      position,
      length: rule.positions.length,
      expected: expected === undefined ? null : [...positionTools(expected)],
    };
  });
  const steps = index.orchestrations.map((orchestration, o) => {
    const current = state.orchestrations[o];
    const active = current?.active ?? null;
    const step =
      active === null ? undefined : (rules.rules[orchestration.steps[active] ?? 0] as CompiledRuleOf<'step'>);
    const expected = step?.sequence?.[current?.position ?? 0];
    return {
      file: orchestration.file,
      active: step?.name ?? null,
      position: current?.position ?? 0,
      expected: expected === undefined ? null : [...positionTools(expected)],
    };
  });
  return {
    run: state.run,
    turn: state.turn,
    runTurns: state.runTurns,
    ended: state.ended,
    visible: narrowed.visible,
    hidden: narrowed.hidden,
    forbidden,
    counts,
    sequences,
    steps,
    completedInRun: setNames(index.doneRunSlot, state.doneRun),
    completedInSession: setNames(index.doneSessionSlot, state.doneSession),
    lastCompleted: state.last?.tool ?? null,
    endCheck: checkEnd(rules, state),
  };
}
