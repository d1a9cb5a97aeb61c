import { RuleFormat } from '../rule-kind';
import { ImportContext, isRecord, own } from './import-context';
import type { ImportResult } from './import-result';
import type { ParsedSource, ValuePath } from './source-locator';

const sections = ['requires', 'needs_any', 'forbid_after'] as const;
const perToolKeys = ['needs', 'needs_any', 'forbid_after'] as const;

function asList(value: unknown): unknown {
  return typeof value === 'string' ? [value] : value;
}

function addEntry(context: ImportContext, section: string, tool: string, value: unknown, at: ValuePath): void {
  const list = asList(value);
  const fieldPath = (issue: ValuePath): ValuePath => (issue[0] === 'tool' ? at : [...at, ...issue.slice(1)]);
  if (section === 'forbid_after') {
    context.addRule({ kind: 'forbids_after', tool, forbids: list }, { at, fieldPath });
  } else {
    context.addRule(
      { kind: 'requires', tool, after: list, mode: section === 'needs_any' ? 'any' : 'all', scope: 'session' },
      { at, fieldPath },
    );
  }
}

/** Whether a value is agent-tool-graph's `to_dict` shape: `{tool: {needs, needs_any, forbid_after}}`. */
export function isPerToolGraph(value: unknown): value is Record<string, Record<string, unknown>> {
  if (!isRecord(value) || Object.keys(value).length === 0) return false;
  return Object.values(value).every(
    (entry) => isRecord(entry) && Object.keys(entry).every((key) => (perToolKeys as readonly string[]).includes(key)),
  );
}

/**
 * Imports agent-tool-graph declarations: `{requires: {tool: [after...]}, needs_any: {...},
 * forbid_after: {tool: [...]}}`, or its `to_dict` shape `{tool: {needs, needs_any, forbid_after}}`. A
 * single name may stand for a one-item list. Prerequisites hold for the whole session.
 */
export function importToolGraph(source: ParsedSource): ImportResult {
  const context = new ImportContext(source, RuleFormat.graph);
  const value = source.value;
  if (isPerToolGraph(value) && !sections.some((section) => Object.hasOwn(value, section))) {
    for (const tool of context.keysOf([], value)) {
      const entry = value[tool] ?? {};
      for (const key of context.keysOf([tool], entry)) {
        const list = asList(own(entry, key));
        if (Array.isArray(list) && list.length === 0) continue;
        addEntry(context, key === 'needs' ? 'requires' : key, tool, own(entry, key), [tool, key]);
      }
    }
    return context.finish();
  }
  if (!isRecord(value)) {
    context.report(
      'error',
      'invalid-file',
      [],
      'expected an object with requires, needs_any or forbid_after',
      'write {"requires": {"tool": ["after"]}}',
    );
    return context.finish();
  }
  for (const key of context.keysOf([], value)) {
    if (!(sections as readonly string[]).includes(key)) {
      context.report(
        'error',
        'unknown-field',
        [key],
        `unknown section ${JSON.stringify(key)}`,
        `use ${sections.join(', ')}`,
      );
      continue;
    }
    const section = own(value, key);
    if (!isRecord(section)) {
      context.report(
        'error',
        'invalid-rule',
        [key],
        `${key} must map each tool to a list of tools`,
        `write ${key}: {tool: [other, ...]}`,
      );
      continue;
    }
    for (const tool of context.keysOf([key], section)) addEntry(context, key, tool, own(section, tool), [key, tool]);
  }
  return context.finish();
}
