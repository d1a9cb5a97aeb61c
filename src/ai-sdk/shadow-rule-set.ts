import type { CompiledRuleSet } from '../rules';

const shadowed = new WeakMap<CompiledRuleSet, CompiledRuleSet>();

/**
 * The rule set with every rule only reported (`enforcement: shadow`), whatever each rule or file
 * said: the engine then hides and refuses nothing and says what the rules would have done. Made once
 * per rule set (the engine indexes a rule set by its identity).
 */
export function shadowRuleSet(rules: CompiledRuleSet): CompiledRuleSet {
  const known = shadowed.get(rules);
  if (known !== undefined) return known;
  const shadow: CompiledRuleSet = {
    ...rules,
    rules: rules.rules.map((rule) => ({ ...rule, enforcement: 'shadow' as const })),
  };
  shadowed.set(rules, shadow);
  return shadow;
}
