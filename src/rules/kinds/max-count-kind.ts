import type { z } from 'zod';
import { attemptsOf } from '../engine/attempts-of';
import { makeReason } from '../engine/make-reason';
import { reasonOrder } from '../engine/reason-order';
import { laxInteger } from '../formats/letta-lax-values';
import { own } from '../formats/own-property';
import type { RuleRef } from '../rule-ref';
import type { CommonRuleFields, Zod } from './common-rule-fields';
import type { RuleKindModule, RuleOfKind } from './rule-kind-module';
import { toolMentions } from './tool-mentions';

function maxCountSchema(zod: Zod, common: CommonRuleFields) {
  return zod
    .object({
      ...common.toolRule,
      kind: zod.literal('max_count'),
      limit: zod.number().int().min(0),
      scope: common.scope.default('run'),
    })
    .strict();
}

/** A `max_count` rule: `tool` is blocked once it was attempted `limit` times in `scope`. */
export type MaxCountRule = z.output<ReturnType<typeof maxCountSchema>>;

declare module '../rule-kind-types' {
  interface RuleKindTypes {
    max_count: {
      rule: MaxCountRule;
      state: NoFields;
      view: {
        /** Attempts of every tool a `max_count` rule limits, with its limit. */
        readonly counts: { tool: string; scope: 'run' | 'session'; count: number; limit: number; rule: RuleRef }[];
      };
      reasonCode: 'max_count_reached';
    };
  }
}

const reasonCodes = { maxCountReached: 'max_count_reached' } as const;

/** `max_count`: a tool may be attempted only so often in a run or a session (Letta's `max_count_per_step`). */
export const maxCountKind = {
  kind: 'max_count',
  reasonCodes,
  schema: maxCountSchema,
  tools: (rule) => toolMentions([rule.tool], 'tool'),
  load: {
    neverCallable: {
      order: 10,
      why: (rule, tool) => (rule.limit === 0 && rule.tool === tool ? `${tool} has max_count 0` : null),
    },
  },
  index(rules, { on }) {
    for (const { rule, position } of rules) {
      on.countAttempts(rule.tool, { scope: rule.scope, position });
      on.affects(rule.tool, rule.tool);
      on.checkTool(rule.tool, {
        order: reasonOrder.maxCount,
        position,
        check(context, tool, _args, out) {
          const used = attemptsOf(context, tool, rule.scope);
          if (used < rule.limit) return;
          const times = `${used} time${used === 1 ? '' : 's'}`;
          const message = `${tool} was already used ${times} in this ${rule.scope} (limit ${rule.limit}). Continue without it.`;
          out.push(makeReason(reasonCodes.maxCountReached, rule, message));
        },
      });
    }
    return rules.map(({ rule }) => rule);
  },
  initialState: () => ({}),
  startRun() {},
  describe: (context, rules: readonly RuleOfKind<'max_count'>[]) => ({
    counts: rules.map((rule) => ({
      tool: rule.tool,
      scope: rule.scope,
      count: attemptsOf(context, rule.tool, rule.scope),
      limit: rule.limit,
      rule: rule.ref,
    })),
  }),
  graph(rule, draw) {
    draw.note(rule.tool, `max ${rule.limit}/${rule.scope}`);
  },
  formats: {
    letta: {
      max_count_per_step: (entry) => ({
        body: {
          kind: 'max_count',
          tool: own(entry, 'tool_name'),
          limit: laxInteger(own(entry, 'max_count_limit')),
          scope: 'run',
        },
        renames: { tool: 'tool_name', limit: 'max_count_limit' },
      }),
    },
  },
} satisfies RuleKindModule<'max_count', readonly RuleOfKind<'max_count'>[]>;
