import type { RuleDocument } from '../model/rule';
import type { RuleDiagnostic } from '../rule-diagnostic';

/** What an importer gives back: the document in the unified model, or the errors; warnings either way. */
export type ImportResult =
  | { readonly ok: true; readonly document: RuleDocument; readonly warnings: RuleDiagnostic[] }
  | { readonly ok: false; readonly errors: RuleDiagnostic[]; readonly warnings: RuleDiagnostic[] };
