import type { CompiledRuleOf, CompiledRuleSet } from '../compiled-rule-set';
import { ruleIndex, toolRules } from './rule-index';

/**
 * Whether some rule can make the verdict on `later` depend on `earlier` completing (or failing) first.
 * The runtime runs two calls of one response concurrently only when this is false both ways; the
 * answer is static (it does not look at the state) and errs on the side of `true`.
 */
export function dependsOn(rules: CompiledRuleSet, earlier: { tool: string }, later: { tool: string }): boolean {
  const index = ruleIndex(rules);
  const first = toolRules(index, earlier.tool);
  const second = toolRules(index, later.tool);
  if (first.terminal !== null) return true;
  if (first.childRules.length > 0 || first.conditionals.length > 0) return true;
  if (first.inSequences.length > 0 || index.stepTriggers.has(earlier.tool) || index.recentLength > 0) return true;
  if (index.initTools.has(earlier.tool)) return true;
  if (second.parentsOf.length > 0) return true;
  if (index.hasLastRules && index.childTools.has(earlier.tool)) return true;
  if (earlier.tool === later.tool && (second.maxCount.length > 0 || second.forbidsAfter.length > 0)) return true;
  for (const i of first.forbidsAfter) {
    if ((rules.rules[i] as CompiledRuleOf<'forbids_after'>).forbids.includes(later.tool)) return true;
  }
  for (const i of second.requires) {
    if ((rules.rules[i] as CompiledRuleOf<'requires'>).after.includes(earlier.tool)) return true;
  }
  for (const i of second.preconditions) {
    if ((rules.rules[i] as CompiledRuleOf<'precondition'>).requires_prior_tool === earlier.tool) return true;
  }
  return false;
}
