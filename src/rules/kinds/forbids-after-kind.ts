import type { z } from 'zod';
import { isShadow } from '../engine/is-shadow';
import { makeReason } from '../engine/make-reason';
import { reasonOrder } from '../engine/reason-order';
import type { RuleRef } from '../rule-ref';
import type { SlotArray } from '../slot-array';
import { slotValue, slotWith, slotZeros } from '../slot-array';
import type { CommonRuleFields, Zod } from './common-rule-fields';
import type { RuleKindModule, RuleOfKind } from './rule-kind-module';
import { toolMentions } from './tool-mentions';

function forbidsAfterSchema(zod: Zod, common: CommonRuleFields) {
  return zod
    .object({
      ...common.toolRule,
      kind: zod.literal('forbids_after'),
      forbids: common.toolList.min(1, 'list at least one tool in "forbids"'),
    })
    .strict();
}

/** A `forbids_after` rule: once `tool` completed, every tool in `forbids` is blocked for the rest of the session. */
export type ForbidsAfterRule = z.output<ReturnType<typeof forbidsAfterSchema>>;

declare module '../rule-kind-types' {
  interface RuleKindTypes {
    forbids_after: {
      rule: ForbidsAfterRule;
      state: {
        /** Per forbiddable tool: 0, or 1 + the index of the `forbids_after` rule that forbade it. */
        readonly forbidden: SlotArray;
      };
      view: {
        /** Tools forbidden for the rest of the session, with the rule that forbade each. */
        readonly forbidden: { tool: string; by: RuleRef }[];
      };
      reasonCode: 'forbidden_after';
    };
  }
}

const reasonCodes = { forbiddenAfter: 'forbidden_after' } as const;

/** What the kind indexes: a slot per forbiddable tool, and its rules by position. */
export interface ForbidsAfterIndex {
  readonly slots: ReadonlyMap<string, number>;
  readonly rules: ReadonlyMap<number, RuleOfKind<'forbids_after'>>;
}

/**
 * `forbidden` after `position` fired for `slot`: the first rule to fire stays, unless it is only
 * reported and this one is enforced (a shadow rule never takes an enforced rule's place).
 */
function forbid(own: ForbidsAfterIndex, forbidden: SlotArray, slot: number | undefined, position: number): SlotArray {
  if (slot === undefined) return forbidden;
  const current = slotValue(forbidden, slot);
  if (current === 0) return slotWith(forbidden, slot, position + 1);
  const earlier = own.rules.get(current - 1);
  const rule = own.rules.get(position);
  const takesPlace = earlier !== undefined && rule !== undefined && isShadow(earlier) && !isShadow(rule);
  return takesPlace ? slotWith(forbidden, slot, position + 1) : forbidden;
}

/** `forbids_after`: a completed tool forbids others (or itself) for the rest of the session. */
export const forbidsAfterKind = {
  kind: 'forbids_after',
  reasonCodes,
  schema: forbidsAfterSchema,
  tools: (rule) => [...toolMentions([rule.tool], 'tool'), ...toolMentions(rule.forbids, 'forbids')],
  load: {
    blocksRightAfter: {
      order: 10,
      why: (rule, previous, tool) =>
        rule.tool === previous && rule.forbids.includes(tool) ? `${previous} forbids it` : null,
    },
    identity: (rule) => ({ ...rule, forbids: [...rule.forbids].sort() }),
  },
  index(rules, { on }) {
    const slots = new Map<string, number>();
    const byPosition = new Map<number, RuleOfKind<'forbids_after'>>();
    const own: ForbidsAfterIndex = { slots, rules: byPosition };
    for (const { rule, position } of rules) {
      byPosition.set(position, rule);
      on.affects(rule.tool, rule.tool);
      for (const name of rule.forbids) {
        on.affects(rule.tool, name);
        if (slots.has(name)) continue;
        const slot = slots.size;
        slots.set(name, slot);
        on.checkTool(name, {
          order: reasonOrder.forbidden,
          position,
          check(context, tool, _args, out) {
            const by = byPosition.get(slotValue(context.state.forbidden, slot) - 1);
            if (by === undefined) return;
            const message = `${tool} can no longer be used in this session: ${by.tool} completed and forbids it. Continue without ${tool}.`;
            out.push(makeReason(reasonCodes.forbiddenAfter, by, message));
          },
        });
      }
      on.recordCompleted(rule.tool, {
        record(draft) {
          for (const name of rule.forbids) draft.forbidden = forbid(own, draft.forbidden, slots.get(name), position);
        },
      });
    }
    return own;
  },
  initialState: (own) => ({ forbidden: slotZeros(own.slots.size) }),
  startRun() {},
  describe(context, own) {
    const forbidden = [...own.slots].flatMap(([tool, slot]) => {
      const rule = own.rules.get(slotValue(context.state.forbidden, slot) - 1);
      return rule === undefined ? [] : [{ tool, by: rule.ref }];
    });
    forbidden.sort((a, b) => (a.tool < b.tool ? -1 : 1));
    return { forbidden };
  },
  graph(rule, draw) {
    for (const forbidden of rule.forbids) draw.edge(rule.tool, forbidden, 'forbids', true);
  },
  formats: {
    contracts: [
      {
        field: 'forbids_after',
        order: 20,
        map(forbids, tool, sink) {
          sink.add({
            body: { kind: 'forbids_after', tool, forbids },
            at: ['forbids_after'],
            fieldPath: (issue) => ['forbids_after', ...issue.slice(1)],
          });
        },
      },
    ],
    graph: [
      {
        section: 'forbid_after',
        perToolKey: 'forbid_after',
        body: (tool, list) => ({ kind: 'forbids_after', tool, forbids: list }),
      },
    ],
  },
} satisfies RuleKindModule<'forbids_after', ForbidsAfterIndex>;
