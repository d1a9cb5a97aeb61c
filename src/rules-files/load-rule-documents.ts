import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ParsedSource, RuleDiagnostic, RuleDocument, RuleFormat } from '../rules/index';
import { importContractDirectory, importRules } from '../rules/index';
import { readSourceFile, unreadableFile } from './read-source-file';

/** Input of {@link loadRuleDocuments}. */
export interface LoadRuleDocumentsOptions {
  /** Files, or directories of contract files. */
  readonly paths: readonly string[];
  /** The format of every path, or `auto` (default) to recognise each by content. */
  readonly format?: RuleFormat | 'auto';
}

/** The documents read, or every error; warnings either way. */
export type LoadRuleDocumentsResult =
  | { ok: true; documents: RuleDocument[]; warnings: RuleDiagnostic[] }
  | { ok: false; errors: RuleDiagnostic[]; warnings: RuleDiagnostic[] };

/** Files of a contract directory that are not contracts. */
const sessionFiles = new Set(['session.yaml', 'session.yml']);
const ignoredFiles = new Set(['workflow.yaml', 'workflow.yml']);

async function loadContractDirectory(
  directory: string,
  errors: RuleDiagnostic[],
): Promise<ReturnType<typeof importContractDirectory> | null> {
  let entries: string[];
  try {
    entries = await readdir(directory);
  } catch (error) {
    errors.push(unreadableFile(directory, error));
    return null;
  }
  const names = entries.filter((name) => /\.(ya?ml|json)$/i.test(name)).sort();
  if (!names.some((name) => !ignoredFiles.has(name.toLowerCase()) && !sessionFiles.has(name.toLowerCase()))) {
    errors.push({
      severity: 'error',
      code: 'empty-directory',
      file: directory,
      path: '',
      problem: 'the directory holds no contract files (*.yaml, *.yml or *.json, one per tool)',
      fix: 'add a contract file per tool, or pass a rules file',
    });
    return null;
  }
  const contracts: ParsedSource[] = [];
  let session: ParsedSource | undefined;
  for (const name of names) {
    if (ignoredFiles.has(name.toLowerCase())) continue;
    const parsed = await readSourceFile(join(directory, name));
    if (!parsed.ok) {
      errors.push(parsed.error);
      continue;
    }
    if (sessionFiles.has(name.toLowerCase())) session = parsed.source;
    else contracts.push(parsed.source);
  }
  if (errors.length > 0) return null;
  return importContractDirectory({ directory, contracts, ...(session !== undefined ? { session } : {}) });
}

/**
 * Reads rules files and contract directories into unified documents, with a line for every rule and
 * every problem. A directory is read as contracts (one YAML file per tool, optional `session.yaml`).
 */
export async function loadRuleDocuments(options: LoadRuleDocumentsOptions): Promise<LoadRuleDocumentsResult> {
  const format = options.format ?? 'auto';
  const documents: RuleDocument[] = [];
  const errors: RuleDiagnostic[] = [];
  const warnings: RuleDiagnostic[] = [];
  for (const path of options.paths) {
    let isDirectory: boolean;
    try {
      isDirectory = (await stat(path)).isDirectory();
    } catch (error) {
      errors.push(unreadableFile(path, error));
      continue;
    }
    if (isDirectory) {
      if (format !== 'auto' && format !== 'contracts') {
        errors.push({
          severity: 'error',
          code: 'directory-format',
          file: path,
          path: '',
          problem: `a directory can only hold contracts, not ${format} rules`,
          fix: 'pass a file, or --format contracts',
        });
        continue;
      }
      const result = await loadContractDirectory(path, errors);
      if (result === null) continue;
      warnings.push(...result.warnings);
      if (result.ok) documents.push(result.document);
      else errors.push(...result.errors);
      continue;
    }
    const parsed = await readSourceFile(path);
    if (!parsed.ok) {
      errors.push(parsed.error);
      continue;
    }
    const result = importRules(parsed.source, format);
    warnings.push(...result.warnings);
    if (result.ok) documents.push(result.document);
    else errors.push(...result.errors);
  }
  return errors.length > 0 ? { ok: false, errors, warnings } : { ok: true, documents, warnings };
}
