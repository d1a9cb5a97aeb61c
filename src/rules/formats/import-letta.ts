import { listText } from '../engine/list-text';
import { formatMappingsOf } from '../kinds/format-mappings-of';
import type { LettaMapping } from '../kinds/kind-formats';
import { RuleFormat } from '../rule-format';
import { ImportContext } from './import-context';
import type { ImportResult } from './import-result';
import { isRecord } from './is-record';
import { laxInteger } from './letta-lax-values';
import { own } from './own-property';
import type { ParsedSource, ValuePath } from './source-locator';

/**
 * Refuses, with a Letta-specific fix, rule values that Letta's schema accepts but that name no tool
 * or can never be met: an empty `tool_name`, an empty `children` list, a negative `max_count_limit`.
 * Returns whether the entry may be imported.
 */
function checkLettaValues(context: ImportContext, entry: Record<string, unknown>, at: ValuePath): boolean {
  let ok = true;
  if (own(entry, 'tool_name') === '') {
    context.report(
      'error',
      'letta-empty-tool-name',
      [...at, 'tool_name'],
      'tool_name is empty, so the rule names no tool (Letta accepts it but never applies it)',
      'write the name of the tool the rule is about, or remove the rule',
    );
    ok = false;
  }
  const children = own(entry, 'children');
  if (Array.isArray(children) && children.length === 0) {
    context.report(
      'error',
      'letta-empty-children',
      [...at, 'children'],
      'children is empty, so no tool could follow the rule (Letta then silently falls back to every tool)',
      'list the tools that may follow, or remove the rule',
    );
    ok = false;
  }
  const limit = laxInteger(own(entry, 'max_count_limit'));
  if (typeof limit === 'number' && limit < 0) {
    context.report(
      'error',
      'letta-negative-limit',
      [...at, 'max_count_limit'],
      `max_count_limit is ${limit}, so the tool could never be called (Letta accepts it and always blocks the tool)`,
      'give a limit of 1 or more, or 0 to block the tool on purpose',
    );
    ok = false;
  }
  return ok;
}

function importEntry(
  context: ImportContext,
  mappings: ReadonlyMap<string, LettaMapping>,
  entry: { value: unknown; at: ValuePath; index: number },
): void {
  const { value, at, index } = entry;
  if (!isRecord(value)) {
    context.report(
      'error',
      'invalid-rule',
      at,
      'a Letta tool rule must be an object',
      'write {"type": ..., "tool_name": ...}',
    );
    return;
  }
  if (!checkLettaValues(context, value, at)) return;
  const type = own(value, 'type');
  const mapping = typeof type === 'string' ? mappings.get(type) : undefined;
  if (mapping === undefined) {
    context.report(
      'error',
      'unknown-rule-type',
      [...at, 'type'],
      `unknown Letta rule type ${JSON.stringify(type)}`,
      `use ${listText([...mappings.keys()], 'or')}`,
    );
    return;
  }
  const mapped = mapping(value, at, context);
  if (mapped !== null) context.addMapped(mapped, { at, index });
}

/** Each Letta rule type some kind maps from, with its mapping (the first kind's, in the registry's order). */
function lettaMappings(): Map<string, LettaMapping> {
  const mappings = new Map<string, LettaMapping>();
  for (const { mapping } of formatMappingsOf('letta')) {
    for (const [type, map] of Object.entries(mapping)) if (!mappings.has(type)) mappings.set(type, map);
  }
  return mappings;
}

/**
 * Imports Letta `tool_rules`: a JSON list of `{type, tool_name, ...}`, or an object holding it under
 * `tool_rules` (other keys, such as an agent's `tools`, are ignored).
 */
export function importLetta(source: ParsedSource): ImportResult {
  const context = new ImportContext(source, RuleFormat.letta);
  const list = Array.isArray(source.value)
    ? source.value
    : isRecord(source.value)
      ? own(source.value, 'tool_rules')
      : undefined;
  const base: ValuePath = Array.isArray(source.value) ? [] : ['tool_rules'];
  if (!Array.isArray(list)) {
    context.report(
      'error',
      'invalid-file',
      [],
      'expected a list of Letta tool rules, or an object with "tool_rules"',
      'write [{"type": "run_first", "tool_name": "..."}, ...]',
    );
    return context.finish();
  }
  const mappings = lettaMappings();
  list.forEach((value: unknown, index) => importEntry(context, mappings, { value, at: [...base, index], index }));
  return context.finish();
}
