import type { AnyCompiledRule } from '../compiled-rule-set';
import { ruleKindModule } from '../kinds/registered-rule-kinds';
import { isToolPattern, matchesToolPattern } from '../paths/tool-pattern';
import type { RuleDiagnostic } from '../rule-diagnostic';
import { diagnosticFor, ruleName } from './diagnostic-for';

/** Every tool a rule names must be in the catalog; a glob that matches no catalog tool is a warning. */
export function checkCatalog(
  rules: readonly AnyCompiledRule[],
  catalog: ReadonlySet<string>,
  out: RuleDiagnostic[],
): void {
  for (const rule of rules) {
    const reported = new Set<string>();
    for (const { tool, field } of ruleKindModule(rule.kind)?.tools(rule) ?? []) {
      if (reported.has(tool)) continue;
      reported.add(tool);
      if (isToolPattern(tool)) {
        if (![...catalog].some((name) => matchesToolPattern(tool, name))) {
          out.push(
            diagnosticFor(
              rule,
              'warning',
              'pattern-matches-nothing',
              `${ruleName(rule)}: ${field} pattern ${JSON.stringify(tool)} matches no tool in the catalog`,
              'correct the pattern or remove it',
            ),
          );
        }
        continue;
      }
      if (catalog.has(tool)) continue;
      out.push(
        diagnosticFor(
          rule,
          'error',
          'unknown-tool-reference',
          `${ruleName(rule)}: ${field} names ${JSON.stringify(tool)}, which is not in the catalog`,
          `correct the name, or add ${tool} to the tools the session registers`,
        ),
      );
    }
  }
}
