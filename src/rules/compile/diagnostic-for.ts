import type { AnyCompiledRule } from '../compiled-rule-set';
import type { RuleDiagnostic } from '../rule-diagnostic';

/** A diagnostic about one rule, placed at the rule. */
export function diagnosticFor(
  rule: AnyCompiledRule,
  severity: RuleDiagnostic['severity'],
  code: string,
  problem: string,
  fix: string,
): RuleDiagnostic {
  const { file, path, line } = rule.ref;
  return line !== undefined
    ? { severity, code, file, path, line, problem, fix, rule: rule.ref }
    : { severity, code, file, path, problem, fix, rule: rule.ref };
}

/** A short name for a rule in sentences: `requires rule on issue_refund`, `step "research"`, … */
export function ruleName(rule: AnyCompiledRule): string {
  if ('tool' in rule && typeof rule.tool === 'string') return `${rule.kind} rule on ${rule.tool}`;
  if ('name' in rule && typeof rule.name === 'string') return `${rule.kind} "${rule.name}"`;
  return `${rule.kind} rule`;
}
