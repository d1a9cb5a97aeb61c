import type { CompiledRule } from '../compiled-rule-set';
import { parseJsonPath } from '../paths/json-path';
import type { RuleDiagnostic } from '../rule-diagnostic';
import { diagnosticFor, ruleName } from './diagnostic-for';

function checkPath(rule: CompiledRule, path: string, field: string, out: RuleDiagnostic[]): void {
  const parsed = parseJsonPath(path);
  if (parsed.ok) return;
  out.push(
    diagnosticFor(
      rule,
      'error',
      'invalid-json-path',
      `${ruleName(rule)}: ${field} ${JSON.stringify(path)} is not a JSONPath toolrail can read (${parsed.error})`,
      "write it as $ followed by .key, ['key'] or [n] steps, e.g. $.order_id",
    ),
  );
}

/** Checks inside single rules: JSONPaths, regexes, fields that need each other, mapping keys. */
export function checkRuleFields(rules: readonly CompiledRule[], out: RuleDiagnostic[]): void {
  for (const rule of rules) {
    if (rule.kind === 'precondition') {
      for (const condition of rule.with_output ?? []) checkPath(rule, condition.path, 'with_output path', out);
      if (rule.resource) checkPath(rule, rule.resource.path, 'resource path', out);
      if (rule.requires_prior_tool === undefined && (rule.with_output !== undefined || rule.resource !== undefined)) {
        out.push(
          diagnosticFor(
            rule,
            'error',
            'precondition-without-prior-tool',
            `${ruleName(rule)} has with_output or resource but no requires_prior_tool, so there is no output to check`,
            'add requires_prior_tool naming the tool whose output or arguments it refers to',
          ),
        );
      }
      if (rule.requires_prior_tool === undefined && rule.requires_step_count === undefined) {
        out.push(
          diagnosticFor(
            rule,
            'warning',
            'empty-precondition',
            `${ruleName(rule)} has neither requires_prior_tool nor requires_step_count, so it never blocks anything`,
            'add requires_prior_tool or requires_step_count, or remove the precondition',
          ),
        );
      }
    }
    if (rule.kind === 'conditional') {
      if (rule.path !== undefined) checkPath(rule, rule.path, 'path', out);
      const seen = new Set<string>();
      for (const entry of rule.mapping) {
        const key = entry.when.trim().toLowerCase();
        if (seen.has(key)) {
          out.push(
            diagnosticFor(
              rule,
              'warning',
              'duplicate-mapping-key',
              `${ruleName(rule)}: mapping key ${JSON.stringify(entry.when)} repeats an earlier key, so it never fires (the first match wins)`,
              'remove the repeated key or change it',
            ),
          );
        }
        seen.add(key);
      }
      if (rule.strict && rule.default_child !== undefined) {
        out.push(
          diagnosticFor(
            rule,
            'warning',
            'default-child-unused',
            `${ruleName(rule)} is strict, so default_child ${rule.default_child} is never used: an unmatched output allows nothing`,
            'remove default_child, or set strict (require_output_mapping) to false',
          ),
        );
      }
    }
    if (rule.kind === 'step') {
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
  }
}
