import type { CompiledRuleSet } from '../compiled-rule-set';
import type { Reason } from '../reason';
import type { RuleState } from '../rule-state';
import { slotValue } from '../slot-array';
import type { RuleIndex } from './rule-index';
import { ruleIndex } from './rule-index';

/** A reason shared by every tool it applies to, built on first use. */
export function sharedReason(context: EvaluationContext, key: string, build: () => Reason): Reason {
  let reason = context.shared.get(key);
  if (reason === undefined) {
    reason = build();
    context.shared.set(key, reason);
  }
  return reason;
}

/** Marks an evaluation at narrowing time, when no arguments exist yet: any bound resource counts. */
export const anyArguments: unique symbol = Symbol('toolrail.anyArguments');

/** Arguments of a proposed call, or {@link anyArguments} at narrowing. */
export type CallArguments = unknown;

/** What every check reads: the rules, their index, the state, and memos valid for this state only. */
export interface EvaluationContext {
  readonly rules: CompiledRuleSet;
  readonly index: RuleIndex;
  readonly state: RuleState;
  /** Per tool: its prerequisites not met yet (filled by `callFirst`). */
  readonly chains: Map<string, readonly string[]>;
  /** Reasons that do not depend on the tool asked about (after-last, sequence, init), built once per state. */
  readonly shared: Map<string, Reason>;
}

/** Builds the context for one evaluation. */
export function evaluationContext(rules: CompiledRuleSet, state: RuleState): EvaluationContext {
  return { rules, index: ruleIndex(rules), state, chains: new Map(), shared: new Map() };
}

/** Whether `tool` completed in the run (`scope: run`) or the session, per the state's done flags. */
export function isDone(context: EvaluationContext, tool: string, scope: 'run' | 'session'): boolean {
  const slot = (scope === 'run' ? context.index.doneRunSlot : context.index.doneSessionSlot).get(tool);
  if (slot === undefined) return false;
  return slotValue(scope === 'run' ? context.state.doneRun : context.state.doneSession, slot) === 1;
}

/** Turns that came before the current one in the session. */
export function turnsBefore(state: RuleState): number {
  return Math.max(0, state.turn - 1);
}

const catalogSets = new WeakMap<readonly string[], ReadonlySet<string>>();
const sortedCatalogs = new WeakMap<readonly string[], readonly string[]>();

/** The catalog's names, unique and sorted, cached per catalog array (treat catalogs as immutable). */
export function sortedCatalog(catalog: readonly string[]): readonly string[] {
  let sorted = sortedCatalogs.get(catalog);
  if (!sorted) {
    sorted = [...new Set(catalog)].sort();
    sortedCatalogs.set(catalog, sorted);
  }
  return sorted;
}

/** The catalog as a set, cached per catalog array. */
export function catalogSet(catalog: readonly string[]): ReadonlySet<string> {
  let set = catalogSets.get(catalog);
  if (!set) {
    set = new Set(catalog);
    catalogSets.set(catalog, set);
  }
  return set;
}
