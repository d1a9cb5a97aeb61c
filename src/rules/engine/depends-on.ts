import type { CompiledRuleSet } from '../compiled-rule-set';
import { ruleIndex } from './rule-index';

/**
 * Whether some rule can make the verdict on `later` depend on `earlier` completing (or failing) first.
 * The runtime runs two calls of one response concurrently only when this is false both ways; the
 * answer is static (it does not look at the state) and errs on the side of `true`.
 */
export function dependsOn(rules: CompiledRuleSet, earlier: { tool: string }, later: { tool: string }): boolean {
  const { always, affectsAll, dependsOnAll, affects } = ruleIndex(rules).dependencies;
  return (
    always ||
    affectsAll.has(earlier.tool) ||
    dependsOnAll.has(later.tool) ||
    (affects.get(earlier.tool)?.has(later.tool) ?? false)
  );
}
