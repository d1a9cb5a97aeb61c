import { isRecord } from '../../formats/is-record';
import { laxBoolean } from '../../formats/letta-lax-values';
import { own } from '../../formats/own-property';
import type { ValuePath } from '../../formats/source-locator';
import type { ImportSink, MappedRule } from '../kind-formats';

/** A Letta `conditional` rule: `child_output_mapping` in file order, `require_output_mapping` as `strict`. */
export function lettaConditional(entry: Record<string, unknown>, at: ValuePath, sink: ImportSink): MappedRule | null {
  const mapping = own(entry, 'child_output_mapping');
  if (!isRecord(mapping) || Object.keys(mapping).length === 0) {
    sink.report(
      'error',
      'invalid-rule',
      [...at, 'child_output_mapping'],
      'Conditional tool rule must have at least one child tool.',
      'give child_output_mapping at least one output → tool entry',
    );
    return null;
  }
  const keys = sink.keysOf([...at, 'child_output_mapping'], mapping);
  const body: Record<string, unknown> = {
    kind: 'conditional',
    tool: own(entry, 'tool_name'),
    mapping: keys.map((key) => ({ when: key, child: mapping[key] })),
    strict: laxBoolean(own(entry, 'require_output_mapping') ?? false),
  };
  const defaultChild = own(entry, 'default_child');
  if (defaultChild !== undefined && defaultChild !== null) body['default_child'] = defaultChild;
  const renames: Readonly<Record<string, string>> = { tool: 'tool_name', strict: 'require_output_mapping' };
  return {
    body,
    fieldPath: (issue) => {
      if (issue[0] === 'mapping') return [...at, 'child_output_mapping', keys[Number(issue[1])] ?? ''];
      const [first, ...rest] = issue;
      const original = typeof first === 'string' ? (renames[first] ?? first) : first;
      return original === undefined ? at : [...at, original, ...rest];
    },
  };
}

/** A unified `conditional` rule's `mapping`: an object (file order kept) or a list of `{when, child}`. */
export function normalizeMapping(
  rule: Record<string, unknown>,
  at: ValuePath,
  sink: ImportSink,
): Record<string, unknown> {
  const mapping = own(rule, 'mapping');
  if (isRecord(mapping)) {
    const keys = sink.keysOf([...at, 'mapping'], mapping);
    return { ...rule, mapping: keys.map((key) => ({ when: key, child: mapping[key] })) };
  }
  if (Array.isArray(mapping)) {
    return {
      ...rule,
      mapping: (mapping as unknown[]).map((entry): unknown => {
        if (!isRecord(entry)) return entry;
        const when = own(entry, 'when');
        return typeof when === 'boolean' || typeof when === 'number' ? { ...entry, when: String(when) } : entry;
      }),
    };
  }
  return rule;
}
