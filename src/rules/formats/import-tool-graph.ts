import { listText } from '../engine/list-text';
import { formatMappingsOf } from '../kinds/format-mappings-of';
import type { GraphMapping } from '../kinds/kind-formats';
import { RuleFormat } from '../rule-format';
import { ImportContext } from './import-context';
import type { ImportResult } from './import-result';
import { isRecord } from './is-record';
import { own } from './own-property';
import type { ParsedSource, ValuePath } from './source-locator';

/** The agent-tool-graph sections the kinds map (`requires`, `needs_any`, `forbid_after`), in the registry's order. */
export function graphSections(): GraphMapping[] {
  return formatMappingsOf('graph').flatMap(({ mapping }) => mapping);
}

function asList(value: unknown): unknown {
  return typeof value === 'string' ? [value] : value;
}

function addEntry(
  context: ImportContext,
  entry: { section: GraphMapping; tool: string; value: unknown; at: ValuePath },
): void {
  const { section, tool, value, at } = entry;
  const fieldPath = (issue: ValuePath): ValuePath => (issue[0] === 'tool' ? at : [...at, ...issue.slice(1)]);
  context.addRule(section.body(tool, asList(value)), { at, fieldPath });
}

/** Whether a value is agent-tool-graph's `to_dict` shape: `{tool: {needs, needs_any, forbid_after}}`. */
export function isPerToolGraph(value: unknown): value is Record<string, Record<string, unknown>> {
  if (!isRecord(value) || Object.keys(value).length === 0) return false;
  const keys = graphSections().map((section) => section.perToolKey);
  return Object.values(value).every(
    (entry) => isRecord(entry) && Object.keys(entry).every((key) => keys.includes(key)),
  );
}

/**
 * Imports agent-tool-graph declarations: `{requires: {tool: [after...]}, needs_any: {...},
 * forbid_after: {tool: [...]}}`, or its `to_dict` shape `{tool: {needs, needs_any, forbid_after}}`. A
 * single name may stand for a one-item list. Each section is mapped by the kind that declares it.
 */
export function importToolGraph(source: ParsedSource): ImportResult {
  const context = new ImportContext(source, RuleFormat.graph);
  const value = source.value;
  const sections = graphSections();
  if (isPerToolGraph(value) && !sections.some((section) => Object.hasOwn(value, section.section))) {
    for (const tool of context.keysOf([], value)) {
      const entry = value[tool] ?? {};
      for (const key of context.keysOf([tool], entry)) {
        const section = sections.find((candidate) => candidate.perToolKey === key);
        const list = asList(own(entry, key));
        if (section === undefined || (Array.isArray(list) && list.length === 0)) continue;
        addEntry(context, { section, tool, value: own(entry, key), at: [tool, key] });
      }
    }
    return context.finish();
  }
  if (!isRecord(value)) {
    context.report(
      'error',
      'invalid-file',
      [],
      `expected an object with ${listText(
        sections.map((section) => section.section),
        'or',
      )}`,
      'write {"requires": {"tool": ["after"]}}',
    );
    return context.finish();
  }
  for (const key of context.keysOf([], value)) {
    const section = sections.find((candidate) => candidate.section === key);
    if (section === undefined) {
      context.report(
        'error',
        'unknown-field',
        [key],
        `unknown section ${JSON.stringify(key)}`,
        `use ${sections.map((candidate) => candidate.section).join(', ')}`,
      );
      continue;
    }
    const entries = own(value, key);
    if (!isRecord(entries)) {
      context.report(
        'error',
        'invalid-rule',
        [key],
        `${key} must map each tool to a list of tools`,
        `write ${key}: {tool: [other, ...]}`,
      );
      continue;
    }
    for (const tool of context.keysOf([key], entries)) {
      addEntry(context, { section, tool, value: own(entries, tool), at: [key, tool] });
    }
  }
  return context.finish();
}
