import type { RuleRef } from './rule-ref';

/** A problem found while loading or compiling rules: an error refuses the rule set, a warning does not. */
export interface RuleDiagnostic {
  readonly severity: 'error' | 'warning';
  /** Stable, kebab-case identifier of the check, e.g. `prerequisite-cycle`. */
  readonly code: string;
  readonly file: string;
  /** Where in the file: a path such as `tool_rules[3].children`, or `` for the whole file. */
  readonly path: string;
  /** 1-based line, when known. */
  readonly line?: number;
  /** What is wrong, one sentence. */
  readonly problem: string;
  /** What to change, one sentence. */
  readonly fix: string;
  readonly rule?: RuleRef;
}

/** One line, `FILE:PLACE: problem — fix`, where PLACE is the line (and path) or the path alone. */
export function formatDiagnostic(diagnostic: RuleDiagnostic): string {
  const where =
    diagnostic.line !== undefined
      ? `${diagnostic.line}${diagnostic.path ? ` (${diagnostic.path})` : ''}`
      : diagnostic.path || '-';
  const prefix = diagnostic.severity === 'warning' ? 'warning: ' : '';
  return `${diagnostic.file}:${where}: ${prefix}${diagnostic.problem} — ${diagnostic.fix}`;
}
