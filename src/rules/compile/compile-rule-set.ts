import type { CompiledOrchestration, CompiledRule, CompiledRuleSet } from '../compiled-rule-set';
import { defaultMaxTurnsPerRun } from '../compiled-rule-set';
import type { RuleDocument, RuleSettings } from '../model/rule';
import { ruleBodySchema } from '../model/rule-schema';
import type { RuleDiagnostic } from '../rule-diagnostic';
import type { RuleRef } from '../rule-ref';
import { checkCatalog } from './check-catalog';
import { checkCycles } from './check-cycles';
import { checkImpossible } from './check-impossible';
import { checkNeverFire } from './check-never-fire';
import { checkRuleFields } from './check-rule-fields';
import { checkStartOfRun } from './check-start-of-run';
import { staticFacts } from './static-facts';
import { zodIssuePath } from './zod-issue-path';

/** Input of {@link compileRuleSet}. */
export interface CompileRuleSetInput {
  /** The rules of every file, in the unified model (from the importers), in the order given. */
  readonly documents: readonly RuleDocument[];
  /** The session's catalog: when given, every tool a rule names must be in it. */
  readonly catalog?: readonly string[];
  /** Override the documents' settings. */
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

function refOf(rule: RuleDocument['rules'][number], kind: CompiledRule['kind']): RuleRef {
  const { file, index, path, line } = rule.source;
  const id = rule.id ?? `${file}#${path}`;
  return line !== undefined ? { kind, id, file, index, path, line } : { kind, id, file, index, path };
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
      rules.push({ ...parsed.data, ref: refOf(rule, parsed.data.kind) });
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

/**
 * The load-time checks of compiled rules (errors and warnings): rule fields, tools missing from
 * `catalog` (when not `null`), prerequisite cycles, init tools blocked at the start of a run,
 * impossible sequences and child lists, required tools that can never be called, rules that can
 * never fire. `compileRuleSet` runs them; so does the check of a compiled rule set given as data.
 */
export function loadTimeChecks(rules: readonly CompiledRule[], catalog: readonly string[] | null): RuleDiagnostic[] {
  const all: RuleDiagnostic[] = [];
  const facts = staticFacts(rules);
  checkRuleFields(rules, all);
  if (catalog !== null) checkCatalog(rules, new Set(catalog), all);
  checkCycles(rules, all);
  checkStartOfRun(rules, facts, all);
  checkImpossible(rules, facts, all);
  checkNeverFire(rules, facts, all);
  return all;
}
