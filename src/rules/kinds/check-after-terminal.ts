import type { AnyCompiledRule } from '../compiled-rule-set';
import { diagnosticFor, ruleName } from '../compile/diagnostic-for';
import type { RuleDiagnostic } from '../rule-diagnostic';
import type { StaticFacts } from './static-facts';

/**
 * `after-terminal`: a rule about what follows `tool` (child, conditional, continue) never applies when
 * `tool` is terminal (unless a `required_before_exit` rule can keep the run going after it).
 */
export function checkAfterTerminal(
  rule: AnyCompiledRule & { readonly tool: string },
  facts: StaticFacts,
  out: RuleDiagnostic[],
): void {
  if (facts.rulesOf('required_before_exit').length > 0 || facts.rulesOn('terminal', rule.tool).length === 0) return;
  out.push(
    diagnosticFor(
      rule,
      'warning',
      'after-terminal',
      `${ruleName(rule)} never applies: ${rule.tool} is terminal, so the run ends when it completes`,
      `remove this rule or the terminal rule on ${rule.tool}`,
    ),
  );
}
