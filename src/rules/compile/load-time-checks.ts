import type { CompiledRule } from '../compiled-rule-set';
import type { LoadChecks, RuleCheck } from '../kinds/load-checks';
import { ruleKindModule } from '../kinds/registered-rule-kinds';
import type { RuleDiagnostic } from '../rule-diagnostic';
import { checkCatalog } from './check-catalog';
import { checkCycles } from './check-cycles';
import { duplicateWarning, duplicatesOf } from './duplicates-of';
import { staticFactsOf } from './static-facts-of';

function loadChecksOf(rule: CompiledRule): LoadChecks<CompiledRule> {
  return ruleKindModule(rule.kind)?.load ?? {};
}

/**
 * The load-time checks of compiled rules (errors and warnings), phase by phase, each over every rule in
 * order: each kind's checks of its rule's fields, tools missing from `catalog` (when not `null`),
 * prerequisite cycles, whether a run can start (init tools), what other rules make impossible, rules
 * that can never fire (duplicates first), steps that can never become active. Shadow rules are judged
 * as if they were enforced: a rule set must be sound before it is enforced. `compileRuleSet` runs them;
 * so does the check of a compiled rule set given as data.
 */
export function loadTimeChecks(rules: readonly CompiledRule[], catalog: readonly string[] | null): RuleDiagnostic[] {
  const all: RuleDiagnostic[] = [];
  const facts = staticFactsOf(rules);
  for (const rule of rules) loadChecksOf(rule).fields?.(rule, all);
  if (catalog !== null) checkCatalog(rules, new Set(catalog), all);
  checkCycles(rules, all);
  const duplicates = duplicatesOf(rules);
  for (const phase of ['startOfRun', 'reachability', 'neverFires', 'activation'] as const) {
    for (const rule of rules) {
      const first = phase === 'neverFires' ? duplicates.get(rule) : undefined;
      if (first !== undefined) all.push(duplicateWarning(rule, first));
      const check: RuleCheck<CompiledRule> | undefined = loadChecksOf(rule)[phase];
      if (first === undefined) check?.(rule, facts, all);
    }
  }
  return all;
}
