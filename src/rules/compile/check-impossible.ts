import type { CompiledRule, CompiledRuleOf } from '../compiled-rule-set';
import { stepListsAllow } from '../engine/check-steps';
import { positionTools } from '../engine/rule-index';
import type { RuleDiagnostic } from '../rule-diagnostic';
import { diagnosticFor, ruleName } from './diagnostic-for';
import type { StaticFacts } from './static-facts';
import { neverCallableReason } from './static-facts';

/** Why `tool` can never be the call right after `previous` completes, or `null`. */
function blockedRightAfter(facts: StaticFacts, previous: string, tool: string): string | null {
  for (const rule of facts.rulesOn('forbids_after', previous)) {
    if (rule.forbids.includes(tool)) return `${previous} forbids it`;
  }
  for (const rule of [...facts.rulesOn('child', previous), ...facts.rulesOn('parent', previous)]) {
    if (!rule.children.includes(tool)) return `only ${rule.children.join(', ')} may follow ${previous}`;
  }
  return null;
}

function checkPositions(
  rule: CompiledRule,
  positions: readonly (string | readonly string[])[],
  facts: StaticFacts,
  step: CompiledRuleOf<'step'> | null,
  out: RuleDiagnostic[],
): void {
  positions.forEach((position, p) => {
    const previous = p > 0 ? positionTools(positions[p - 1] ?? []) : [];
    const why = positionTools(position).map((tool) => {
      const never = neverCallableReason(facts, tool);
      if (never !== null) return never;
      if (step !== null && !stepListsAllow(step, tool))
        return `${tool} is not in the step's allowed list (or is denied)`;
      const afterEach = previous.map((before) => blockedRightAfter(facts, before, tool));
      if (afterEach.length > 0 && afterEach.every((reason) => reason !== null)) return `${tool}: ${afterEach[0] ?? ''}`;
      return null;
    });
    if (!why.every((reason) => reason !== null)) return;
    out.push(
      diagnosticFor(
        rule,
        'error',
        'impossible-sequence',
        `${ruleName(rule)}: position ${p + 1} can never be reached (${why.join('; ')})`,
        'change the sequence or the rule that blocks that position',
      ),
    );
  });
}

/** Sequences, child lists and required tools that other rules make impossible are refused. */
export function checkImpossible(rules: readonly CompiledRule[], facts: StaticFacts, out: RuleDiagnostic[]): void {
  const childChecked = new Set<string>();
  for (const rule of rules) {
    if (rule.kind === 'sequence') checkPositions(rule, rule.positions, facts, null, out);
    if (rule.kind === 'step' && rule.sequence) checkPositions(rule, rule.sequence, facts, rule, out);
    if ((rule.kind === 'child' || rule.kind === 'parent') && !childChecked.has(rule.tool)) {
      childChecked.add(rule.tool);
      const lists = [...facts.rulesOn('child', rule.tool), ...facts.rulesOn('parent', rule.tool)];
      const common = rule.children.filter((child) => lists.every((other) => other.children.includes(child)));
      const possible = common.filter(
        (child) =>
          neverCallableReason(facts, child) === null &&
          !facts.rulesOn('forbids_after', rule.tool).some((f) => f.forbids.includes(child)),
      );
      if (possible.length === 0) {
        out.push(
          diagnosticFor(
            rule,
            'error',
            'impossible-children',
            common.length === 0
              ? `the child lists of ${rule.tool} have no tool in common, so nothing could follow it`
              : `none of the children of ${rule.tool} (${common.join(', ')}) can ever be called right after it`,
            `make the child lists of ${rule.tool} share an allowed tool`,
          ),
        );
      }
    }
    if (rule.kind === 'required_before_exit') {
      const never = neverCallableReason(facts, rule.tool);
      if (never !== null) {
        out.push(
          diagnosticFor(
            rule,
            'error',
            'required-never-visible',
            `${rule.tool} is required before the run may end, but it can never be called (${never}), so no run could end`,
            `remove the required_before_exit rule or the rule that blocks ${rule.tool}`,
          ),
        );
      } else if (facts.rulesOn('forbids_after', rule.tool).some((f) => f.forbids.includes(rule.tool))) {
        out.push(
          diagnosticFor(
            rule,
            'warning',
            'required-once-per-session',
            `${rule.tool} is required in every run but forbids itself after it completes, so only the first run can end`,
            `drop ${rule.tool} from its own forbids_after, or the required_before_exit rule`,
          ),
        );
      }
    }
  }
}
