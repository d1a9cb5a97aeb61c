import type { z } from 'zod';
import type { MappedRule, ImportSink } from '../kinds/kind-formats';
import type { Rule, RuleDocument, RuleSettings } from '../model/rule';
import { ruleBodySchema } from '../model/rule-body-schema';
import type { RuleFormat } from '../rule-format';
import type { RuleDiagnostic } from '../rule-diagnostic';
import type { RuleBody } from '../rule-kind-types';
import type { ImportResult } from './import-result';
import type { ParsedSource, ValuePath } from './source-locator';
import { pathText } from './source-locator';

/** Where a rule is written, and how to place the fields zod complains about. */
export interface AddRuleOptions {
  /** Path of the rule in the file. */
  readonly at: ValuePath;
  /** Maps a path inside the unified body to the path in the file; defaults to `[...at, ...issuePath]`. */
  readonly fieldPath?: (issuePath: ValuePath) => ValuePath;
  /** The rule's index in its file; defaults to the count of rules added so far. */
  readonly index?: number;
}

/** The path in the file of a field of a mapped rule's body, by its `renames` (unified → native names). */
function renamedPath(at: ValuePath, renames: Readonly<Record<string, string>>) {
  return (issue: ValuePath): ValuePath => {
    const [first, ...rest] = issue;
    const original = typeof first === 'string' ? (renames[first] ?? first) : first;
    return original === undefined ? at : [...at, original, ...rest];
  };
}

/** Collects the rules and diagnostics of one import, placing each at its line when the file has positions. */
export class ImportContext implements ImportSink {
  readonly rules: Rule[] = [];
  readonly errors: RuleDiagnostic[] = [];
  readonly warnings: RuleDiagnostic[] = [];

  constructor(
    readonly source: ParsedSource,
    readonly format: RuleFormat,
  ) {}

  /** A diagnostic at `path` of this file. */
  report(severity: 'error' | 'warning', code: string, path: ValuePath, problem: string, fix: string): void {
    const line = this.source.locator?.lineOf(path);
    const diagnostic: RuleDiagnostic = {
      severity,
      code,
      file: this.source.file,
      path: pathText(path),
      ...(line !== undefined ? { line } : {}),
      problem,
      fix,
    };
    (severity === 'error' ? this.errors : this.warnings).push(diagnostic);
  }

  /** Keys of the object at `path`, in file order when known. */
  keysOf(path: ValuePath, value: object): string[] {
    const ordered = this.source.locator?.keysOf(path);
    const own = Object.keys(value);
    if (ordered === undefined) return own;
    const known = new Set(own);
    return ordered.filter((key) => known.has(key));
  }

  /**
   * Validates a rule body with the unified schema and adds it with its source; reports zod issues at
   * the field's line. `sourcePath` is where the rule is written in the file.
   */
  addRule(body: Record<string, unknown>, options: AddRuleOptions): RuleBody | null {
    const sourcePath = options.at;
    const fieldPath = options.fieldPath ?? ((p: ValuePath) => [...sourcePath, ...p]);
    const parsed = ruleBodySchema().safeParse(body);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) this.reportIssue(issue, fieldPath);
      return null;
    }
    const line = this.source.locator?.lineOf(sourcePath);
    const index = options.index ?? this.rules.length;
    const source = {
      file: this.source.file,
      index,
      path: pathText(sourcePath),
      ...(line !== undefined ? { line } : {}),
    };
    this.rules.push({ ...parsed.data, source });
    return parsed.data;
  }

  /** Adds a rule a kind mapped from a native entry written at `at` (the mapping's own `at` wins). */
  addMapped(mapped: MappedRule, options: { at: ValuePath; index?: number }): RuleBody | null {
    const at = mapped.at ?? options.at;
    const fieldPath = mapped.fieldPath ?? (mapped.renames === undefined ? undefined : renamedPath(at, mapped.renames));
    return this.addRule(mapped.body, {
      at,
      ...(fieldPath !== undefined ? { fieldPath } : {}),
      ...(options.index !== undefined ? { index: options.index } : {}),
    });
  }

  private reportIssue(issue: z.core.$ZodIssue, fieldPath: (issuePath: ValuePath) => ValuePath): void {
    const path = fieldPath(issue.path.filter((part): part is string | number => typeof part !== 'symbol'));
    this.report(
      'error',
      'invalid-rule',
      path,
      issue.message,
      'correct the field as the format describes (see docs/rules.md)',
    );
  }

  /** The import's result. */
  finish(settings?: RuleSettings): ImportResult {
    if (this.errors.length > 0) return { ok: false, errors: this.errors, warnings: this.warnings };
    const document: RuleDocument = {
      file: this.source.file,
      format: this.format,
      rules: this.rules,
      ...(settings !== undefined ? { settings } : {}),
    };
    return { ok: true, document, warnings: this.warnings };
  }
}
