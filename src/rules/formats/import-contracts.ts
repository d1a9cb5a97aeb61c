import type { Rule, RuleDocument } from '../model/rule';
import { RuleFormat } from '../rule-kind';
import type { RuleDiagnostic } from '../rule-diagnostic';
import { ImportContext, isRecord, own } from './import-context';
import type { ImportResult } from './import-result';
import type { ParsedSource, ValuePath } from './source-locator';

/** Contract fields about ordering that toolrail reads; the rest of a contract is other tooling's business. */
const notEnforced = ['transitions', 'gate', 'binds', 'checkpoint', 'policy', 'execution_constraints'];

function toolOfFile(file: string): string {
  const name = file.split(/[\\/]/).pop() ?? file;
  return name.replace(/\.(ya?ml|json)$/i, '');
}

/** Imports one contract file (`tool`, `preconditions`, `forbids_after`), as found in a contract directory. */
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
  const preconditions = own(value, 'preconditions') ?? [];
  if (!Array.isArray(preconditions)) {
    context.report(
      'error',
      'invalid-rule',
      ['preconditions'],
      '"preconditions" must be a list',
      'write preconditions: [- requires_prior_tool: ...]',
    );
  } else {
    preconditions.forEach((precondition, i) => {
      const at: ValuePath = ['preconditions', i];
      if (!isRecord(precondition)) {
        context.report(
          'error',
          'invalid-rule',
          at,
          'a precondition must be an object',
          'write requires_prior_tool / with_output / resource / requires_step_count',
        );
        return;
      }
      context.addRule({ ...precondition, kind: 'precondition', tool }, { at });
    });
  }
  const forbids = own(value, 'forbids_after');
  if (forbids !== undefined) {
    context.addRule(
      { kind: 'forbids_after', tool, forbids },
      { at: ['forbids_after'], fieldPath: (issue) => ['forbids_after', ...issue.slice(1)] },
    );
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
