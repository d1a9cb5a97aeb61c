import { RuleFormat } from '../rule-kind';
import { ImportContext, isRecord, own } from './import-context';
import type { ImportResult } from './import-result';
import { laxBoolean, laxInteger } from './letta-lax-values';
import type { ParsedSource, ValuePath } from './source-locator';

const simpleKinds = new Map<string, string>([
  ['run_first', 'init'],
  ['exit_loop', 'terminal'],
  ['continue_loop', 'continue'],
  ['required_before_exit', 'required_before_exit'],
  ['requires_approval', 'requires_approval'],
]);

function mappingKey(value: unknown): string {
  return typeof value === 'string' ? value : String(value);
}

function importChildArgNodes(context: ImportContext, entry: Record<string, unknown>, at: ValuePath): void {
  const nodes = own(entry, 'child_arg_nodes');
  if (nodes === undefined || nodes === null) return;
  const children = own(entry, 'children');
  const names = Array.isArray(children) ? children : [];
  if (!Array.isArray(nodes)) {
    context.report(
      'error',
      'invalid-rule',
      [...at, 'child_arg_nodes'],
      'child_arg_nodes must be a list',
      'write a list of {name, args}',
    );
    return;
  }
  nodes.forEach((node, n) => {
    const name = isRecord(node) ? own(node, 'name') : undefined;
    if (!names.includes(name)) {
      context.report(
        'error',
        'invalid-rule',
        [...at, 'child_arg_nodes', n],
        `child_arg_nodes[${n}] names ${JSON.stringify(name)}, which is not in children [${names.join(', ')}]`,
        "name one of the rule's children",
      );
    } else if (
      isRecord(node) &&
      own(node, 'args') !== undefined &&
      own(node, 'args') !== null &&
      !isRecord(own(node, 'args'))
    ) {
      context.report(
        'error',
        'invalid-rule',
        [...at, 'child_arg_nodes', n, 'args'],
        'args must be an object (a dict)',
        'write args as an object',
      );
    }
  });
  context.report(
    'warning',
    'prefilled-args-ignored',
    [...at, 'child_arg_nodes'],
    'prefilled arguments (child_arg_nodes) are not applied by toolrail',
    'pass the values in the tool call, or set them in the tool itself',
  );
}

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

function importEntry(context: ImportContext, entry: unknown, at: ValuePath, index: number): void {
  if (!isRecord(entry)) {
    context.report(
      'error',
      'invalid-rule',
      at,
      'a Letta tool rule must be an object',
      'write {"type": ..., "tool_name": ...}',
    );
    return;
  }
  if (!checkLettaValues(context, entry, at)) return;
  const type = own(entry, 'type');
  const tool = own(entry, 'tool_name');
  const fields =
    (names: Record<string, string>) =>
    (issue: ValuePath): ValuePath => {
      const [first, ...rest] = issue;
      const original = typeof first === 'string' ? (names[first] ?? first) : first;
      return original === undefined ? at : [...at, original, ...rest];
    };
  const simple = typeof type === 'string' ? simpleKinds.get(type) : undefined;
  if (simple !== undefined) {
    if (type === 'run_first' && own(entry, 'args') !== undefined && own(entry, 'args') !== null) {
      context.report(
        'warning',
        'prefilled-args-ignored',
        [...at, 'args'],
        'prefilled arguments (args) of run_first are not applied by toolrail',
        'pass the values in the tool call, or set them in the tool itself',
      );
    }
    context.addRule({ kind: simple, tool }, { at, index, fieldPath: fields({ tool: 'tool_name' }) });
    return;
  }
  switch (type) {
    case 'constrain_child_tools':
    case 'parent_last_tool':
      if (type === 'constrain_child_tools') importChildArgNodes(context, entry, at);
      context.addRule(
        { kind: type === 'parent_last_tool' ? 'parent' : 'child', tool, children: own(entry, 'children') },
        { at, index, fieldPath: fields({ tool: 'tool_name' }) },
      );
      return;
    case 'max_count_per_step':
      context.addRule(
        { kind: 'max_count', tool, limit: laxInteger(own(entry, 'max_count_limit')), scope: 'run' },
        { at, index, fieldPath: fields({ tool: 'tool_name', limit: 'max_count_limit' }) },
      );
      return;
    case 'conditional': {
      const mapping = own(entry, 'child_output_mapping');
      if (!isRecord(mapping) || Object.keys(mapping).length === 0) {
        context.report(
          'error',
          'invalid-rule',
          [...at, 'child_output_mapping'],
          'Conditional tool rule must have at least one child tool.',
          'give child_output_mapping at least one output → tool entry',
        );
        return;
      }
      const keys = context.keysOf([...at, 'child_output_mapping'], mapping);
      const body: Record<string, unknown> = {
        kind: 'conditional',
        tool,
        mapping: keys.map((key) => ({ when: mappingKey(key), child: mapping[key] })),
        strict: laxBoolean(own(entry, 'require_output_mapping') ?? false),
      };
      const defaultChild = own(entry, 'default_child');
      if (defaultChild !== undefined && defaultChild !== null) body['default_child'] = defaultChild;
      context.addRule(body, {
        at,
        index,
        fieldPath: (issue) =>
          issue[0] === 'mapping'
            ? [...at, 'child_output_mapping', keys[Number(issue[1])] ?? '']
            : fields({ tool: 'tool_name', strict: 'require_output_mapping' })(issue),
      });
      return;
    }
    default:
      context.report(
        'error',
        'unknown-rule-type',
        [...at, 'type'],
        `unknown Letta rule type ${JSON.stringify(type)}`,
        'use run_first, exit_loop, continue_loop, constrain_child_tools, parent_last_tool, conditional, max_count_per_step, required_before_exit or requires_approval',
      );
  }
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
  list.forEach((entry, i) => importEntry(context, entry, [...base, i], i));
  return context.finish();
}
