import { narrow } from '../src/rules';
import type { CompiledRuleSet, NarrowResult, RuleState } from '../src/rules';
import type { SessionCatalog } from '../src/session';

/** What narrowing reads of a session's state. */
interface Narrowed {
  readonly rules: CompiledRuleSet;
  readonly ruleState: RuleState;
  readonly catalog: SessionCatalog;
}

/** The names in this turn's catalog, in catalog order. */
export const catalogNames = (state: Pick<Narrowed, 'catalog'>): string[] =>
  state.catalog.tools.map((tool) => tool.name);

const narrowings = new WeakMap<RuleState, { catalog: SessionCatalog; narrowed: NarrowResult }>();

/**
 * The rules' narrowing of this turn's catalog for the rule state now. Rule states and catalogs are
 * replaced, never changed: it is computed once for each pair (the turn narrows, then the Temporal
 * UI's details show the same narrowing).
 */
export function narrowedCatalog(state: Narrowed): NarrowResult {
  const known = narrowings.get(state.ruleState);
  if (known?.catalog === state.catalog) return known.narrowed;
  const narrowed = narrow(state.rules, state.ruleState, catalogNames(state));
  narrowings.set(state.ruleState, { catalog: state.catalog, narrowed });
  return narrowed;
}
