import type { CompiledRule, CompiledRuleOf } from '../compiled-rule-set';
import { stepListsAllow } from '../engine/check-steps';
import { positionTools } from '../engine/rule-index';
import type { RuleDiagnostic } from '../rule-diagnostic';
import { diagnosticFor } from './diagnostic-for';
import type { StaticFacts } from './static-facts';
import { neverCallableReason } from './static-facts';

/** Why another rule blocks `tool` at the start of the first run, or `null`. */
function blockedAtStart(rules: readonly CompiledRule[], facts: StaticFacts, tool: string): string | null {
  const never = neverCallableReason(facts, tool);
  if (never !== null) return never;
  const requires = facts.rulesOn('requires', tool)[0];
  if (requires !== undefined) {
    return `a requires rule (${requires.ref.file}:${requires.ref.line ?? requires.ref.path}) makes it wait for ${requires.after.join(', ')}`;
  }
  for (const rule of facts.rulesOn('precondition', tool)) {
    if (rule.requires_prior_tool !== undefined) return `a precondition makes it wait for ${rule.requires_prior_tool}`;
    if ((rule.requires_step_count?.gte ?? 0) > 0) return 'a precondition requires earlier turns';
  }
  for (const rule of rules) {
    if (rule.kind === 'parent' && rule.children.includes(tool))
      return `a parent rule allows it only right after ${rule.tool}`;
    if (rule.kind === 'sequence') {
      const first = rule.positions[0];
      if (first !== undefined && !positionTools(first).includes(tool)) {
        return `a sequence (${rule.ref.file}:${rule.ref.line ?? rule.ref.path}) must start with ${positionTools(first).join(' or ')}`;
      }
    }
  }
  const stepsByFile = new Map<string, CompiledRuleOf<'step'>[]>();
  for (const rule of rules)
    if (rule.kind === 'step') stepsByFile.set(rule.ref.file, [...(stepsByFile.get(rule.ref.file) ?? []), rule]);
  for (const [file, steps] of stepsByFile) {
    if (steps.every((step) => !stepListsAllow(step, tool))) return `no orchestration step of ${file} allows it`;
  }
  return null;
}

/** An init tool that another rule blocks at the start of a run is refused: the run could never start. */
export function checkStartOfRun(rules: readonly CompiledRule[], facts: StaticFacts, out: RuleDiagnostic[]): void {
  for (const rule of rules) {
    if (rule.kind !== 'init') continue;
    const why = blockedAtStart(rules, facts, rule.tool);
    if (why === null) continue;
    out.push(
      diagnosticFor(
        rule,
        'error',
        'init-blocked',
        `init tool ${rule.tool} is blocked at the start of a run: ${why}`,
        `remove the init rule, or the rule that blocks ${rule.tool} at the start`,
      ),
    );
  }
}
