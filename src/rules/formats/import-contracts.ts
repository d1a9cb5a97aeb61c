import { formatMappingsOf } from '../kinds/format-mappings-of';
import type { ContractSink } from '../kinds/kind-formats';
import type { Rule, RuleDocument } from '../model/rule';
import { RuleFormat } from '../rule-format';
import type { RuleDiagnostic } from '../rule-diagnostic';
import { ImportContext } from './import-context';
import type { ImportResult } from './import-result';
import { isRecord } from './is-record';
import { own } from './own-property';
import type { ParsedSource } from './source-locator';

/** Contract fields about ordering that toolrail reads; the rest of a contract is other tooling's business. */
const notEnforced = ['transitions', 'gate', 'binds', 'checkpoint', 'policy', 'execution_constraints'];

function toolOfFile(file: string): string {
  const name = file.split(/[\\/]/).pop() ?? file;
  return name.replace(/\.(ya?ml|json)$/i, '');
}

/**
 * Imports one contract file (`tool`, then the fields the kinds map: `preconditions`, `forbids_after`), as
 * found in a contract directory.
 */
export function importContract(source: ParsedSource): ImportResult & { tool?: string } {
  const context = new ImportContext(source, RuleFormat.contracts);
  const value = source.value;
  if (!isRecord(value)) {
    context.report(
      'error',
      'invalid-file',
      [],
      'a contract must be an object with a "tool" field',
      'write tool: <name>, then preconditions / forbids_after',
    );
    return context.finish();
  }
  const declared = own(value, 'tool');
  const tool = typeof declared === 'string' && declared !== '' ? declared : toolOfFile(source.file);
  if (declared !== undefined && typeof declared !== 'string') {
    context.report('error', 'invalid-rule', ['tool'], '"tool" must be the tool\'s name', 'write tool: <name>');
  }
  const fields = formatMappingsOf('contracts').flatMap(({ mapping }) => mapping);
  fields.sort((a, b) => a.order - b.order);
  for (const field of fields) {
    const written = own(value, field.field);
    if (written === undefined) continue;
    const sink: ContractSink = {
      report: (...diagnostic) => context.report(...diagnostic),
      keysOf: (path, object) => context.keysOf(path, object),
      add: (mapped) => context.addMapped(mapped, { at: [field.field] }),
    };
    field.map(written, tool, sink);
  }
  for (const field of notEnforced) {
    if (own(value, field) === undefined) continue;
    context.report(
      'warning',
      'contract-field-ignored',
      [field],
      `${field} is not enforced by toolrail (only preconditions and forbids_after are)`,
      'express it with toolrail rules (see docs/rules.md), or ignore this warning',
    );
  }
  const result = context.finish();
  return { ...result, tool };
}

/** A directory of contracts: one parsed file per contract, and the optional `session.yaml`. */
export interface ContractDirectory {
  readonly directory: string;
  readonly contracts: readonly ParsedSource[];
  readonly session?: ParsedSource;
}

/**
 * Imports a directory of contract files. A tool with no contract is blocked unless `session.yaml` sets
 * `unmatchedPolicy: allow` (the format's documented default is `block`).
 */
export function importContractDirectory(input: ContractDirectory): ImportResult {
  const errors: RuleDiagnostic[] = [];
  const warnings: RuleDiagnostic[] = [];
  const rules: Rule[] = [];
  const tools: string[] = [];
  for (const contract of input.contracts) {
    const result = importContract(contract);
    warnings.push(...result.warnings);
    if (!result.ok) errors.push(...result.errors);
    else rules.push(...result.document.rules);
    if (result.tool !== undefined) tools.push(result.tool);
  }
  let policy: unknown = 'block';
  const sessionFile = input.session?.file ?? input.directory;
  let line: number | undefined;
  if (input.session !== undefined) {
    const session = input.session.value;
    const context = new ImportContext(input.session, RuleFormat.contracts);
    if (session !== null && session !== undefined && !isRecord(session)) {
      context.report(
        'error',
        'invalid-file',
        [],
        'session.yaml must be an object',
        'write unmatchedPolicy: allow | block',
      );
    } else if (isRecord(session) && own(session, 'unmatchedPolicy') !== undefined) {
      policy = own(session, 'unmatchedPolicy');
      line = input.session.locator?.lineOf(['unmatchedPolicy']);
      if (policy !== 'allow' && policy !== 'block') {
        context.report(
          'error',
          'invalid-rule',
          ['unmatchedPolicy'],
          `unmatchedPolicy must be allow or block, not ${JSON.stringify(policy)}`,
          'write unmatchedPolicy: allow (or block)',
        );
      }
    }
    errors.push(...context.errors);
  }
  if (errors.length > 0) return { ok: false, errors, warnings };
  const source = { file: sessionFile, index: 0, path: 'unmatchedPolicy', ...(line !== undefined ? { line } : {}) };
  rules.push({
    kind: 'default',
    policy: policy === 'allow' ? 'allow' : 'block',
    known: [...new Set(tools)].sort(),
    source,
  });
  const document: RuleDocument = { file: input.directory, format: RuleFormat.contracts, rules };
  return { ok: true, document, warnings };
}
