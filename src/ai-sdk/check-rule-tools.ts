import { compiledRuleSetErrors } from '../rules';
import type { CompiledRuleSet } from '../rules';
import { RuleToolMissingError } from './errors/rule-tool-missing-error';

/**
 * Checks the rules against the loop's tools, with the load-time checks `compileRuleSet` runs when it
 * is given a catalog: every tool a rule names must be one of `tools` (and an init tool must be
 * callable at the start of a run, and so on).
 *
 * @throws RuleToolMissingError listing every problem.
 */
export function checkRuleTools(rules: CompiledRuleSet, tools: readonly string[]): void {
  const catalog = [...new Set(tools)].sort();
  const problems = compiledRuleSetErrors({ ...rules, catalog });
  if (problems.length === 0) return;
  throw new RuleToolMissingError({
    tools: catalog,
    problems: problems.map(({ path, problem }) => ({
      path: path.map((segment) => (typeof segment === 'number' ? `[${segment}]` : segment)).join(''),
      problem,
    })),
  });
}
