import { ruleKindModule } from '../kinds/registered-rule-kinds';
import type { RuleSettings } from '../model/rule';
import type { RuleEnforcement } from '../rule-enforcement';
import { RuleFormat } from '../rule-format';
import { ImportContext } from './import-context';
import type { ImportResult } from './import-result';
import { isRecord } from './is-record';
import { own } from './own-property';
import type { ParsedSource, ValuePath } from './source-locator';

const topLevelKeys = ['toolrail', 'default', 'onEmpty', 'maxTurnsPerRun', 'enforcement', 'rules', 'description'];

function readSettings(context: ImportContext, value: Record<string, unknown>): RuleSettings {
  const onEmpty = own(value, 'onEmpty');
  const maxTurns = own(value, 'maxTurnsPerRun');
  const enforcement = own(value, 'enforcement');
  const settings: { onEmpty?: 'end-run' | 'allow-all'; maxTurnsPerRun?: number; enforcement?: RuleEnforcement } = {};
  if (onEmpty === 'end-run' || onEmpty === 'allow-all') settings.onEmpty = onEmpty;
  else if (onEmpty !== undefined) {
    context.report(
      'error',
      'invalid-setting',
      ['onEmpty'],
      `onEmpty must be end-run or allow-all, not ${JSON.stringify(onEmpty)}`,
      'write onEmpty: end-run (or allow-all)',
    );
  }
  if (typeof maxTurns === 'number' && Number.isInteger(maxTurns) && maxTurns > 0) settings.maxTurnsPerRun = maxTurns;
  else if (maxTurns !== undefined) {
    context.report(
      'error',
      'invalid-setting',
      ['maxTurnsPerRun'],
      `maxTurnsPerRun must be a positive integer, not ${JSON.stringify(maxTurns)}`,
      'write maxTurnsPerRun: 50',
    );
  }
  if (enforcement === 'enforce' || enforcement === 'shadow') settings.enforcement = enforcement;
  else if (enforcement !== undefined) {
    context.report(
      'error',
      'invalid-setting',
      ['enforcement'],
      `enforcement must be enforce or shadow, not ${JSON.stringify(enforcement)}`,
      'write enforcement: shadow to report the rules without enforcing them (or enforce, the default)',
    );
  }
  return settings;
}

/**
 * Imports the unified toolrail format: `{toolrail: 1, default?, onEmpty?, maxTurnsPerRun?, enforcement?,
 * rules: [...]}`, each rule `{kind, ...}` as in docs/rules.md; a kind may first normalise what the file
 * wrote (a conditional `mapping` may be an object, file order kept, or a list of `{when, child}`).
 */
export function importToolrail(source: ParsedSource): ImportResult {
  const context = new ImportContext(source, RuleFormat.toolrail);
  const value = source.value;
  if (!isRecord(value)) {
    context.report(
      'error',
      'invalid-file',
      [],
      'expected an object with a "rules" list',
      'write toolrail: 1 and rules: [...]',
    );
    return context.finish();
  }
  for (const key of Object.keys(value)) {
    if (!topLevelKeys.includes(key)) {
      context.report(
        'error',
        'unknown-field',
        [key],
        `unknown top-level field ${JSON.stringify(key)}`,
        `use ${topLevelKeys.join(', ')}`,
      );
    }
  }
  const version = own(value, 'toolrail');
  if (version !== undefined && version !== 1) {
    context.report(
      'error',
      'unsupported-version',
      ['toolrail'],
      `toolrail format version ${JSON.stringify(version)} is not supported`,
      'write toolrail: 1',
    );
  }
  const settings = readSettings(context, value);
  const rules = own(value, 'rules') ?? [];
  if (!Array.isArray(rules)) {
    context.report('error', 'invalid-file', ['rules'], '"rules" must be a list', 'write rules: [- kind: requires ...]');
    return context.finish(settings);
  }
  rules.forEach((rule, i) => {
    const at: ValuePath = ['rules', i];
    if (!isRecord(rule)) {
      context.report(
        'error',
        'invalid-rule',
        at,
        'a rule must be an object with a "kind"',
        'write - kind: requires, tool: ..., after: [...]',
      );
      return;
    }
    const kind = own(rule, 'kind');
    const mapping = typeof kind === 'string' ? ruleKindModule(kind)?.formats.toolrail : undefined;
    context.addRule(mapping === undefined ? rule : mapping.normalize(rule, at, context), { at, index: i });
  });
  const policy = own(value, 'default');
  if (policy === 'allow' || policy === 'block') {
    const line = source.locator?.lineOf(['default']);
    context.rules.push({
      kind: 'default',
      policy,
      source: { file: source.file, index: rules.length, path: 'default', ...(line !== undefined ? { line } : {}) },
    });
  } else if (policy !== undefined) {
    context.report(
      'error',
      'invalid-setting',
      ['default'],
      `default must be allow or block, not ${JSON.stringify(policy)}`,
      'write default: allow (or block)',
    );
  }
  return context.finish(settings);
}
