import { diagnosticFor, ruleName } from '../../compile/diagnostic-for';
import type { RuleDiagnostic } from '../../rule-diagnostic';
import type { RuleOfKind } from '../rule-kind-module';

/** A step's own fields: a valid `message_regex`, a value for every condition that needs one, a sequence to match. */
export function checkStepFields(rule: RuleOfKind<'step'>, out: RuleDiagnostic[]): void {
  for (const condition of rule.conditions) {
    if (condition.type === 'message_regex') {
      try {
        new RegExp(condition.value ?? '', 'i');
      } catch (error) {
        out.push(
          diagnosticFor(
            rule,
            'error',
            'invalid-regex',
            `${ruleName(rule)}: message_regex ${JSON.stringify(condition.value)} is not a valid regular expression (${error instanceof Error ? error.message : String(error)})`,
            'fix the pattern (JavaScript syntax, matched case-insensitively)',
          ),
        );
      }
    }
    if (condition.type !== 'sequence_match' && (condition.value === undefined || condition.value === '')) {
      out.push(
        diagnosticFor(
          rule,
          'error',
          'condition-without-value',
          `${ruleName(rule)}: condition ${condition.type} has no value`,
          `give the condition a "value" (${condition.type === 'tool_used' ? 'a tool name' : 'the text to look for'})`,
        ),
      );
    }
    if (condition.type === 'sequence_match' && (rule.sequence === undefined || rule.sequence.length === 0)) {
      out.push(
        diagnosticFor(
          rule,
          'error',
          'sequence-match-without-sequence',
          `${ruleName(rule)}: condition sequence_match compares against the step's sequence, but the step has none`,
          'add a "sequence" to the step or remove the condition',
        ),
      );
    }
  }
}
