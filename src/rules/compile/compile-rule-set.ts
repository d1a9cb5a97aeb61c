import type { CompiledOrchestration, CompiledRule, CompiledRuleSet } from '../compiled-rule-set';
import { defaultMaxTurnsPerRun } from '../compiled-rule-set';
import type { Rule, RuleDocument, RuleSettings } from '../model/rule';
import { ruleBodySchema } from '../model/rule-body-schema';
import type { RuleDiagnostic } from '../rule-diagnostic';
import type { RuleBody } from '../rule-kind-types';
import type { RuleRef } from '../rule-ref';
import { loadTimeChecks } from './load-time-checks';
import { zodIssuePath } from './zod-issue-path';

/** Input of {@link compileRuleSet}. */
export interface CompileRuleSetInput {
  /** The rules of every file, in the unified model (from the importers), in the order given. */
  readonly documents: readonly RuleDocument[];
  /** The session's catalog: when given, every tool a rule names must be in it. */
  readonly catalog?: readonly string[];
  /** Override the documents' settings (a rule's own `enforcement` still wins). */
  readonly options?: RuleSettings;
}

/** The outcome of {@link compileRuleSet}: the rules, or every error; warnings either way. */
export type CompileRuleSetResult =
  | { readonly ok: true; readonly rules: CompiledRuleSet; readonly warnings: RuleDiagnostic[] }
  | { readonly ok: false; readonly errors: RuleDiagnostic[]; readonly warnings: RuleDiagnostic[] };

function mergeSettings(
  documents: readonly RuleDocument[],
  options: RuleSettings | undefined,
): CompiledRuleSet['settings'] {
  const onEmptyValues = documents.map((d) => d.settings?.onEmpty).filter((v) => v !== undefined);
  const turnValues = documents.map((d) => d.settings?.maxTurnsPerRun).filter((v) => v !== undefined);
  const onEmpty =
    options?.onEmpty ??
    (onEmptyValues.length > 0 && onEmptyValues.every((value) => value === 'allow-all') ? 'allow-all' : 'end-run');
  const maxTurnsPerRun =
    options?.maxTurnsPerRun ?? (turnValues.length > 0 ? Math.min(...turnValues) : defaultMaxTurnsPerRun);
  return { onEmpty, maxTurnsPerRun };
}

function refOf(rule: Rule, kind: CompiledRule['kind']): RuleRef {
  const { file, index, path, line } = rule.source;
  const id = rule.id ?? `${file}#${path}`;
  return line !== undefined ? { kind, id, file, index, path, line } : { kind, id, file, index, path };
}

/**
 * A rule as compiled: its body with `enforcement: shadow` only when it is a shadow rule (its own field,
 * else the options', else its document's), then its reference.
 */
function compiledRule(body: RuleBody, context: { rule: Rule; document: RuleDocument; options?: RuleSettings }) {
  const { enforcement, ...rest } = body;
  const mode = enforcement ?? context.options?.enforcement ?? context.document.settings?.enforcement ?? 'enforce';
  const shadow = mode === 'shadow' ? { enforcement: 'shadow' as const } : {};
  return { ...rest, ...shadow, ref: refOf(context.rule, body.kind) } as CompiledRule;
}

/**
 * Compiles the rules of one or more files into one rule set (they combine: every constraint holds),
 * running every load-time check: rule fields, tools missing from the catalog, prerequisite cycles, init
 * tools blocked at the start of a run, impossible sequences and child lists, required tools that can
 * never be called (errors), and rules that can never fire (warnings). Pure and deterministic.
 */
export function compileRuleSet(input: CompileRuleSetInput): CompileRuleSetResult {
  const errors: RuleDiagnostic[] = [];
  const warnings: RuleDiagnostic[] = [];
  const rules: CompiledRule[] = [];
  const orchestrations: CompiledOrchestration[] = [];
  for (const document of input.documents) {
    // The `step` rules of one document are one orchestration: the compiled set's `orchestrations`.
    const steps: number[] = [];
    for (const rule of document.rules) {
      const { source, ...body } = rule;
      const parsed = ruleBodySchema().safeParse(body);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          const path = `${source.path}${zodIssuePath(issue.path)}`;
          errors.push({
            severity: 'error',
            code: 'invalid-rule',
            file: source.file,
            path,
            ...(source.line !== undefined ? { line: source.line } : {}),
            problem: issue.message,
            fix: 'correct the rule as the format describes (see docs/rules.md)',
          });
        }
        continue;
      }
      if (parsed.data.kind === 'step') steps.push(rules.length);
      const options = input.options;
      rules.push(compiledRule(parsed.data, { rule, document, ...(options !== undefined ? { options } : {}) }));
    }
    if (steps.length > 0) orchestrations.push({ file: document.file, steps });
  }
  const catalog = input.catalog === undefined ? null : [...new Set(input.catalog)].sort();
  if (errors.length === 0) {
    for (const diagnostic of loadTimeChecks(rules, catalog))
      (diagnostic.severity === 'error' ? errors : warnings).push(diagnostic);
  }
  if (errors.length > 0) return { ok: false, errors, warnings };
  const compiled: CompiledRuleSet = {
    format: 'toolrail.compiled-rules',
    version: 1,
    rules,
    orchestrations,
    settings: mergeSettings(input.documents, input.options),
    catalog,
  };
  return { ok: true, rules: JSON.parse(JSON.stringify(compiled)) as CompiledRuleSet, warnings };
}
