import type { z } from 'zod';
import { listText } from '../engine/list-text';
import { makeReason } from '../engine/make-reason';
import { reasonOrder } from '../engine/reason-order';
import { own } from '../formats/own-property';
import { checkChildLists, indexChildren, notAChild } from './children-rule';
import type { CommonRuleFields, Zod } from './common-rule-fields';
import type { RuleKindModule } from './rule-kind-module';
import { toolMentions } from './tool-mentions';

function parentSchema(zod: Zod, common: CommonRuleFields) {
  return zod
    .object({
      ...common.toolRule,
      kind: zod.literal('parent'),
      children: common.toolList.min(1, 'list at least one child tool'),
    })
    .strict();
}

/** A `parent` rule: `children` are allowed only right after `tool` completed, and right after it only they are. */
export type ParentRule = z.output<ReturnType<typeof parentSchema>>;

declare module '../rule-kind-types' {
  interface RuleKindTypes {
    parent: { rule: ParentRule; state: NoFields; view: NoFields; reasonCode: 'parent_required' };
  }
}

const reasonCodes = { parentRequired: 'parent_required' } as const;

/** `parent`: Letta's `parent_last_tool`. */
export const parentKind = {
  kind: 'parent',
  reasonCodes,
  schema: parentSchema,
  tools: (rule) => [...toolMentions([rule.tool], 'tool'), ...toolMentions(rule.children, 'children')],
  load: {
    blocksRightAfter: { order: 21, why: notAChild },
    blocksAtStart: {
      order: 30,
      why: (rule, tool) =>
        rule.children.includes(tool) ? `a parent rule allows it only right after ${rule.tool}` : null,
    },
    reachability: checkChildLists,
    identity: (rule) => ({ ...rule, children: [...rule.children].sort() }),
  },
  index(rules, { on }) {
    for (const entry of rules) {
      const { rule, position } = entry;
      indexChildren(entry, { on, code: reasonCodes.parentRequired });
      const message = `${listText(rule.children, 'and')} can only be called right after ${rule.tool}. Call ${rule.tool} first.`;
      const reason = makeReason(reasonCodes.parentRequired, rule, message, [rule.tool]);
      for (const child of rule.children) {
        on.dependsOnAll(child);
        on.checkTool(child, {
          order: reasonOrder.parent,
          position,
          check(context, _tool, _args, out) {
            if (rule.tool !== context.state.last?.tool) out.push(reason);
          },
        });
      }
    }
    return null;
  },
  initialState: () => ({}),
  startRun() {},
  describe: () => ({}),
  graph(rule, draw) {
    for (const child of rule.children) draw.edge(rule.tool, child, 'parent');
  },
  formats: {
    letta: {
      parent_last_tool: (entry) => ({
        body: { kind: 'parent', tool: own(entry, 'tool_name'), children: own(entry, 'children') },
        renames: { tool: 'tool_name' },
      }),
    },
  },
} satisfies RuleKindModule<'parent', null>;
