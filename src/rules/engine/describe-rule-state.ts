import type { CompiledRuleSet } from '../compiled-rule-set';
import { ruleKindModule } from '../kinds/registered-rule-kinds';
import type { Reason } from '../reason';
import type { KindViewFields } from '../rule-kind-types';
import type { RuleState, RunEnd } from '../rule-state';
import type { SlotArray } from '../slot-array';
import { slotValue } from '../slot-array';
import { checkEnd } from './check-end';
import { evaluationContext } from './evaluation-context';
import { narrow } from './narrow';

/** The fields of the rule state's view that every rule set has. */
export interface CoreRuleStateView {
  readonly run: number;
  readonly turn: number;
  readonly runTurns: number;
  readonly ended: RunEnd | null;
  readonly visible: string[];
  readonly hidden: { tool: string; reasons: Reason[] }[];
  /** Visible tools shadow rules would hide if they were enforced (see `NarrowResult`); absent when none. */
  readonly shadowHidden?: { tool: string; reasons: Reason[] }[];
  /** Tools tracked by rules that completed in this run / in the session. */
  readonly completedInRun: string[];
  readonly completedInSession: string[];
  readonly lastCompleted: string | null;
  /** Whether a text answer would be accepted now, and if not why. */
  readonly endCheck: { endsRun: boolean; reasons: Reason[]; shadowRefused?: Reason[] };
}

/**
 * A readable view of the rule state, for the `ruleState` query and `toolrail state`. Plain JSON: the
 * shared fields, and each kind's (`forbidden`, `counts`, `sequences`, `steps`, …).
 */
export type RuleStateView = CoreRuleStateView & KindViewFields;

function setNames(slots: ReadonlyMap<string, number>, values: SlotArray): string[] {
  return [...slots]
    .filter(([, slot]) => slotValue(values, slot) === 1)
    .map(([tool]) => tool)
    .sort();
}

/** Describes the state for humans and tools: what is visible and why the rest is hidden, counts, positions. */
export function describeRuleState(rules: CompiledRuleSet, state: RuleState, catalog: readonly string[]): RuleStateView {
  const context = evaluationContext(rules, state);
  const { index } = context;
  const narrowed = narrow(rules, state, catalog);
  const view: Record<string, unknown> = {
    run: state.run,
    turn: state.turn,
    runTurns: state.runTurns,
    ended: state.ended,
    visible: narrowed.visible,
    hidden: narrowed.hidden,
    ...(narrowed.shadowHidden === undefined ? {} : { shadowHidden: narrowed.shadowHidden }),
  };
  for (const [kind, own] of index.kinds) Object.assign(view, ruleKindModule(kind)?.describe(context, own));
  view['completedInRun'] = setNames(index.doneRunSlot, state.doneRun);
  view['completedInSession'] = setNames(index.doneSessionSlot, state.doneSession);
  view['lastCompleted'] = state.last?.tool ?? null;
  view['endCheck'] = checkEnd(rules, state);
  return view as unknown as RuleStateView;
}
