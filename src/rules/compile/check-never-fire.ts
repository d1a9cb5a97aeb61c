import type { CompiledRule, CompiledRuleOf } from '../compiled-rule-set';
import { canonicalJson } from '../paths/canonical-json';
import type { RuleDiagnostic } from '../rule-diagnostic';
import { diagnosticFor, ruleName } from './diagnostic-for';
import type { StaticFacts } from './static-facts';

function identity(rule: CompiledRule): string {
  const { ref: _ref, id: _id, description: _description, ...body } = rule;
  const sorted: Record<string, unknown> = { ...body };
  if (rule.kind === 'child' || rule.kind === 'parent') sorted['children'] = [...rule.children].sort();
  if (rule.kind === 'forbids_after') sorted['forbids'] = [...rule.forbids].sort();
  if (rule.kind === 'requires') sorted['after'] = [...rule.after].sort();
  return canonicalJson(sorted);
}

/** Warnings for rules that can never fire: duplicates, rules after a terminal tool, unreachable steps. */
export function checkNeverFire(rules: readonly CompiledRule[], facts: StaticFacts, out: RuleDiagnostic[]): void {
  const seen = new Map<string, CompiledRule>();
  const hasRequired = rules.some((rule) => rule.kind === 'required_before_exit');
  for (const rule of rules) {
    const key = identity(rule);
    const first = seen.get(key);
    if (first !== undefined) {
      out.push(
        diagnosticFor(
          rule,
          'warning',
          'duplicate-rule',
          `${ruleName(rule)} repeats the rule at ${first.ref.file}:${first.ref.line ?? first.ref.path} and has no effect of its own`,
          'remove the duplicate',
        ),
      );
      continue;
    }
    seen.set(key, rule);
    const afterTerminal = rule.kind === 'child' || rule.kind === 'conditional' || rule.kind === 'continue';
    if (afterTerminal && !hasRequired && facts.terminalTools.has(rule.tool)) {
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
  }
  const byFile = new Map<string, CompiledRuleOf<'step'>[]>();
  for (const rule of rules)
    if (rule.kind === 'step') byFile.set(rule.ref.file, [...(byFile.get(rule.ref.file) ?? []), rule]);
  for (const steps of byFile.values()) {
    const fallback = steps.find((step) => step.default) ?? steps.find((step) => step.conditions.length === 0);
    for (const step of steps) {
      if (step === fallback || step.conditions.length > 0) continue;
      out.push(
        diagnosticFor(
          step,
          'warning',
          'step-never-active',
          `${ruleName(step)} has no conditions and is not the default step, so it can never become active`,
          'give it conditions, or mark it as the default step',
        ),
      );
    }
  }
}
