import type { z } from 'zod';
import type { Positioned, ReasonCode, RuleKindDefinition, RuleRef } from '../../../../src/rules/index';
import { diagnosticFor, ruleName } from '../../../../src/rules/compile/diagnostic-for';
import { makeReason } from '../../../../src/rules/engine/make-reason';
import { reasonOrder } from '../../../../src/rules/engine/reason-order';
import { own } from '../../../../src/rules/formats/own-property';
import type { CommonRuleFields, Zod } from '../../../../src/rules/kinds/common-rule-fields';
import { toolMentions } from '../../../../src/rules/kinds/tool-mentions';

function cooldownSchema(zod: Zod, common: CommonRuleFields) {
  return zod.object({ ...common.toolRule, kind: zod.literal('cooldown'), calls: zod.number().int().min(1) }).strict();
}

/** A `cooldown` rule (a kind only the tests know): after `tool` completes, it waits for `calls` other calls. */
export type CooldownRule = z.output<ReturnType<typeof cooldownSchema>>;

/** What the kind declares, as a kind of the registry declares it in `RuleKindTypes`. */
export interface CooldownTypes {
  readonly rule: CooldownRule;
  readonly state: {
    /** Per tool with a cooldown: the session's count of completed calls from which it may run again. */
    readonly cooldowns: readonly number[];
  };
  readonly view: {
    readonly cooldowns: { tool: string; remaining: number; rule: RuleRef }[];
  };
  readonly reasonCode: 'cooling_down';
}

interface CooldownIndex {
  readonly slots: ReadonlyMap<string, number>;
  readonly rules: readonly Positioned<CooldownRule & { readonly ref: RuleRef }>[];
}

type StateOfKind = CooldownTypes['state'] & { readonly completed: number };

/** The longest cooldown a rule may ask for, in calls. */
const maxCalls = 100;

/**
 * A kind defined outside the registry, as a new kind would be: its schema, a load-time check, its check
 * of calls, what it records and shows, how it is drawn and how a native format (Letta) maps to it.
 */
export const cooldownKind: RuleKindDefinition<'cooldown', CooldownTypes, CooldownIndex> = {
  kind: 'cooldown',
  reasonCodes: { coolingDown: 'cooling_down' },
  schema: cooldownSchema,
  tools: (rule) => toolMentions([rule.tool], 'tool'),
  load: {
    fields(rule, out) {
      if (rule.calls <= maxCalls) return;
      out.push(
        diagnosticFor(
          rule,
          'error',
          'cooldown-too-long',
          `${ruleName(rule)} waits for ${rule.calls} calls, more than ${maxCalls}`,
          `give calls of at most ${maxCalls}`,
        ),
      );
    },
  },
  index(rules, { on }) {
    const slots = new Map<string, number>();
    for (const { rule, position } of rules) {
      const slot = slots.get(rule.tool) ?? slots.size;
      slots.set(rule.tool, slot);
      on.affects(rule.tool, rule.tool);
      on.checkTool(rule.tool, {
        order: reasonOrder.maxCount + 5,
        position,
        check(context, tool, _args, out) {
          const state = context.state as unknown as StateOfKind;
          const remaining = (state.cooldowns[slot] ?? 0) - state.completed;
          if (remaining <= 0) return;
          const message = `${tool} is cooling down: call ${remaining} other tool${remaining === 1 ? '' : 's'} first.`;
          out.push(makeReason('cooling_down' as ReasonCode, rule, message));
        },
      });
      on.recordCompleted(rule.tool, {
        record(draft) {
          const state = draft as unknown as { cooldowns: readonly number[]; completed: number };
          const cooldowns = state.cooldowns.slice();
          cooldowns[slot] = Math.max(cooldowns[slot] ?? 0, state.completed + rule.calls);
          state.cooldowns = cooldowns;
        },
      });
    }
    return { slots, rules };
  },
  initialState: ({ slots }) => ({ cooldowns: [...slots.keys()].map(() => 0) }),
  startRun() {},
  describe(context, { slots, rules }) {
    const state = context.state as unknown as StateOfKind;
    return {
      cooldowns: rules.map(({ rule }) => ({
        tool: rule.tool,
        remaining: Math.max(0, (state.cooldowns[slots.get(rule.tool) ?? 0] ?? 0) - state.completed),
        rule: rule.ref,
      })),
    };
  },
  graph(rule, draw) {
    draw.note(rule.tool, `cooldown ${rule.calls} calls`);
  },
  formats: {
    letta: {
      cooldown_tool: (entry) => ({
        body: { kind: 'cooldown', tool: own(entry, 'tool_name'), calls: own(entry, 'cooldown_calls') },
        renames: { tool: 'tool_name', calls: 'cooldown_calls' },
      }),
    },
  },
};
