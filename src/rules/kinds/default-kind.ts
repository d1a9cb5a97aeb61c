import type { z } from 'zod';
import { isShadow } from '../engine/is-shadow';
import { makeReason } from '../engine/make-reason';
import { reasonOrder } from '../engine/reason-order';
import type { CommonRuleFields, Zod } from './common-rule-fields';
import type { RuleKindModule } from './rule-kind-module';
import { toolMentions } from './tool-mentions';

function defaultSchema(zod: Zod, common: CommonRuleFields) {
  return zod
    .object({
      ...common.base,
      kind: zod.literal('default'),
      policy: zod.enum(['allow', 'block']),
      known: common.toolList.optional(),
    })
    .strict();
}

/**
 * A `default` rule: what happens to a catalog tool no rule covers: with `known`, one of those tools (a
 * contract directory's tools); without, one some rule names.
 */
export type DefaultRule = z.output<ReturnType<typeof defaultSchema>>;

declare module '../rule-kind-types' {
  interface RuleKindTypes {
    default: { rule: DefaultRule; state: NoFields; view: NoFields; reasonCode: 'unruled_tool_blocked' };
  }
}

const reasonCodes = { unruledToolBlocked: 'unruled_tool_blocked' } as const;

/**
 * `default`: the unified format's `default: block` and a contract directory's `unmatchedPolicy` (both
 * written by their importers from the file's settings). An enforced rule counts only tools that
 * enforced rules name: a shadow rule never lets a tool through.
 */
export const defaultKind = {
  kind: 'default',
  reasonCodes,
  schema: defaultSchema,
  tools: (rule) => toolMentions(rule.known ?? [], 'known'),
  load: {
    neverCallable: {
      order: 20,
      why(rule, tool, facts) {
        if (rule.policy !== 'block') return null;
        if (rule.known !== undefined) {
          return rule.known.includes(tool) ? null : `${tool} has no contract and tools without one are blocked`;
        }
        return facts.mentioned.has(tool) ? null : `${tool} is blocked by default: no rule covers it`;
      },
    },
  },
  index(rules, { on }) {
    for (const { rule, position } of rules) {
      if (rule.policy !== 'block') continue;
      on.checkEveryTool({
        order: reasonOrder.default,
        position,
        check(context, tool, _args, out) {
          const named = isShadow(rule) ? context.index.mentioned : context.index.mentionedEnforced;
          if (rule.known === undefined ? named.has(tool) : rule.known.includes(tool)) return;
          const message =
            rule.known === undefined
              ? `${tool} is not covered by any rule, and tools without rules are blocked. Use another tool.`
              : `${tool} has no contract, and tools without a contract are blocked. Use another tool.`;
          out.push(makeReason(reasonCodes.unruledToolBlocked, rule, message));
        },
      });
    }
    return null;
  },
  initialState: () => ({}),
  startRun() {},
  describe: () => ({}),
  graph() {},
  formats: {},
} satisfies RuleKindModule<'default', null>;
