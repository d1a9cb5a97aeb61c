import type { CompiledRuleSet, RuleDiagnostic, RuleFormat, RuleSettings } from '../rules/index';
import { compileRuleSet } from '../rules/index';
import { loadRuleDocuments } from './load-rule-documents';

/** Input of {@link loadRuleSet}. */
export interface LoadRuleSetOptions {
  readonly paths: readonly string[];
  readonly format?: RuleFormat | 'auto';
  /** When given, every tool a rule names must be in it. */
  readonly catalog?: readonly string[];
  readonly settings?: RuleSettings;
}

/** A compiled rule set, or every error; warnings either way. */
export type LoadRuleSetResult =
  | { ok: true; rules: CompiledRuleSet; warnings: RuleDiagnostic[] }
  | { ok: false; errors: RuleDiagnostic[]; warnings: RuleDiagnostic[] };

/** Reads rules files (and contract directories) and compiles them into one rule set. */
export async function loadRuleSet(options: LoadRuleSetOptions): Promise<LoadRuleSetResult> {
  const loaded = await loadRuleDocuments({
    paths: options.paths,
    ...(options.format ? { format: options.format } : {}),
  });
  if (!loaded.ok) return loaded;
  const compiled = compileRuleSet({
    documents: loaded.documents,
    ...(options.catalog !== undefined ? { catalog: options.catalog } : {}),
    ...(options.settings !== undefined ? { options: options.settings } : {}),
  });
  const warnings = [...loaded.warnings, ...compiled.warnings];
  return compiled.ok ? { ok: true, rules: compiled.rules, warnings } : { ok: false, errors: compiled.errors, warnings };
}
