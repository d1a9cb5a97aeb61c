import type { z } from 'zod';
import { isRecord } from '../formats/is-record';
import { own } from '../formats/own-property';
import type { ValuePath } from '../formats/source-locator';
import { checkAfterTerminal } from './check-after-terminal';
import { checkChildLists, indexChildren, notAChild } from './children-rule';
import type { CommonRuleFields, Zod } from './common-rule-fields';
import type { ImportSink } from './kind-formats';
import type { RuleKindModule } from './rule-kind-module';
import { toolMentions } from './tool-mentions';

function childSchema(zod: Zod, common: CommonRuleFields) {
  return zod
    .object({
      ...common.toolRule,
      kind: zod.literal('child'),
      children: common.toolList.min(1, 'list at least one child tool'),
    })
    .strict();
}

/** A `child` rule: right after `tool` completed, only `children` are allowed (and a text answer is refused). */
export type ChildRule = z.output<ReturnType<typeof childSchema>>;

declare module '../rule-kind-types' {
  interface RuleKindTypes {
    child: { rule: ChildRule; state: NoFields; view: NoFields; reasonCode: 'child_required' };
  }
}

const reasonCodes = { childRequired: 'child_required' } as const;

/** Letta's `child_arg_nodes`: checked as Letta checks them, then a warning that toolrail does not apply them. */
function checkChildArgNodes(entry: Record<string, unknown>, at: ValuePath, sink: ImportSink): void {
  const nodes = own(entry, 'child_arg_nodes');
  if (nodes === undefined || nodes === null) return;
  const children = own(entry, 'children');
  const names: unknown[] = Array.isArray(children) ? children : [];
  if (!Array.isArray(nodes)) {
    sink.report(
      'error',
      'invalid-rule',
      [...at, 'child_arg_nodes'],
      'child_arg_nodes must be a list',
      'write a list of {name, args}',
    );
    return;
  }
  nodes.forEach((node: unknown, n) => {
    const name = isRecord(node) ? own(node, 'name') : undefined;
    const args = isRecord(node) ? own(node, 'args') : undefined;
    if (!names.includes(name)) {
      sink.report(
        'error',
        'invalid-rule',
        [...at, 'child_arg_nodes', n],
        `child_arg_nodes[${n}] names ${JSON.stringify(name)}, which is not in children [${names.join(', ')}]`,
        "name one of the rule's children",
      );
    } else if (args !== undefined && args !== null && !isRecord(args)) {
      sink.report(
        'error',
        'invalid-rule',
        [...at, 'child_arg_nodes', n, 'args'],
        'args must be an object (a dict)',
        'write args as an object',
      );
    }
  });
  sink.report(
    'warning',
    'prefilled-args-ignored',
    [...at, 'child_arg_nodes'],
    'prefilled arguments (child_arg_nodes) are not applied by toolrail',
    'pass the values in the tool call, or set them in the tool itself',
  );
}

/** `child`: Letta's `constrain_child_tools`. */
export const childKind = {
  kind: 'child',
  reasonCodes,
  schema: childSchema,
  tools: (rule) => [...toolMentions([rule.tool], 'tool'), ...toolMentions(rule.children, 'children')],
  load: {
    blocksRightAfter: { order: 20, why: notAChild },
    reachability: checkChildLists,
    neverFires: checkAfterTerminal,
    identity: (rule) => ({ ...rule, children: [...rule.children].sort() }),
  },
  index(rules, { on }) {
    for (const entry of rules) indexChildren(entry, { on, code: reasonCodes.childRequired });
    return null;
  },
  initialState: () => ({}),
  startRun() {},
  describe: () => ({}),
  graph(rule, draw) {
    for (const child of rule.children) draw.edge(rule.tool, child, 'child');
  },
  formats: {
    letta: {
      constrain_child_tools(entry, at, sink) {
        checkChildArgNodes(entry, at, sink);
        const body = { kind: 'child', tool: own(entry, 'tool_name'), children: own(entry, 'children') };
        return { body, renames: { tool: 'tool_name' } };
      },
    },
  },
} satisfies RuleKindModule<'child', null>;
