import type { z } from 'zod';
import { appendTo } from '../append-to';
import { checkJsonPath } from '../compile/check-json-path';
import { diagnosticFor, ruleName } from '../compile/diagnostic-for';
import { makeReason } from '../engine/make-reason';
import { endReasonOrder, reasonOrder } from '../engine/reason-order';
import { sharedReason } from '../engine/shared-reason';
import type { ConditionalDecision } from '../rule-state';
import { checkAfterTerminal } from './check-after-terminal';
import type { CommonRuleFields, Zod } from './common-rule-fields';
import { lettaConditional, normalizeMapping } from './conditional/conditional-formats';
import { decideConditional } from './conditional/decide-conditional';
import type { Positioned, RuleKindModule, RuleOfKind } from './rule-kind-module';
import { toolMentions } from './tool-mentions';

function conditionalSchema(zod: Zod, common: CommonRuleFields) {
  return zod
    .object({
      ...common.toolRule,
      kind: zod.literal('conditional'),
      mapping: zod
        .array(zod.object({ when: zod.string(), child: common.toolName }).strict())
        .min(1, 'a conditional rule needs at least one mapping entry'),
      default_child: common.toolName.optional(),
      strict: zod.boolean().default(false),
      path: zod.string().min(1).optional(),
    })
    .strict();
}

/** A `conditional` rule: right after `tool` completed, its output picks the next tool (first matching key wins). */
export type ConditionalRule = z.output<ReturnType<typeof conditionalSchema>>;

declare module '../rule-kind-types' {
  interface RuleKindTypes {
    conditional: { rule: ConditionalRule; state: NoFields; view: NoFields; reasonCode: 'child_required' };
  }
}

const reasonCodes = { childRequired: 'child_required' } as const;

type Conditional = RuleOfKind<'conditional'>;

/** The children a rule may pick: its mapping's and its default. */
function childrenOf(rule: Conditional): string[] {
  return [
    ...rule.mapping.map((entry) => entry.child),
    ...(rule.default_child === undefined ? [] : [rule.default_child]),
  ];
}

/** The decision of the rule at `position` on the last completed call, if that call was of its tool. */
function decisionOf(decisions: readonly ConditionalDecision[] | undefined, position: number) {
  return decisions?.find((decision) => decision.rule === position);
}

/** `conditional`: Letta's `conditional` rule, reading the tool's actual result. */
export const conditionalKind = {
  kind: 'conditional',
  reasonCodes,
  schema: conditionalSchema,
  tools: (rule) => [
    ...toolMentions([rule.tool], 'tool'),
    ...toolMentions(
      rule.mapping.map((entry) => entry.child),
      'mapping',
    ),
    ...toolMentions(rule.default_child === undefined ? [] : [rule.default_child], 'default_child'),
  ],
  load: {
    fields(rule, out) {
      if (rule.path !== undefined) checkJsonPath(rule, { path: rule.path, field: 'path' }, out);
      const seen = new Set<string>();
      for (const entry of rule.mapping) {
        const key = entry.when.trim().toLowerCase();
        if (seen.has(key)) {
          out.push(
            diagnosticFor(
              rule,
              'warning',
              'duplicate-mapping-key',
              `${ruleName(rule)}: mapping key ${JSON.stringify(entry.when)} repeats an earlier key, so it never fires (the first match wins)`,
              'remove the repeated key or change it',
            ),
          );
        }
        seen.add(key);
      }
      if (rule.strict && rule.default_child !== undefined) {
        out.push(
          diagnosticFor(
            rule,
            'warning',
            'default-child-unused',
            `${ruleName(rule)} is strict, so default_child ${rule.default_child} is never used: an unmatched output allows nothing`,
            'remove default_child, or set strict (require_output_mapping) to false',
          ),
        );
      }
    },
    neverFires: checkAfterTerminal,
  },
  index(rules, { on }) {
    const byTool = new Map<string, Positioned<Conditional>[]>();
    for (const entry of rules) {
      const { rule, position } = entry;
      appendTo(byTool, rule.tool, entry);
      on.affectsAll(rule.tool);
      for (const child of childrenOf(rule)) on.affectsAll(child);
      on.checkAfter(rule.tool, {
        order: reasonOrder.afterLastOutput,
        position,
        check(context, tool, _args, out) {
          const decision = decisionOf(context.state.last?.conditional, position);
          if (decision === undefined || decision.allow === null || decision.allow.includes(tool)) return;
          out.push(
            sharedReason(context, `conditional:${position}`, () => {
              const next = decision.allow?.[0];
              const output =
                decision.matched === null ? 'selects the default next tool' : `was ${JSON.stringify(decision.matched)}`;
              const message =
                next === undefined
                  ? `The output of ${rule.tool} matched none of its expected values, so no tool may follow it. Answer the user instead.`
                  : `The output of ${rule.tool} ${output}: call ${next} next.`;
              return makeReason(reasonCodes.childRequired, rule, message);
            }),
          );
        },
      });
      on.checkEndAfter(rule.tool, {
        order: endReasonOrder.afterLastOutput,
        position,
        check(context, out) {
          const decision = decisionOf(context.state.last?.conditional, position);
          if (decision === undefined) return;
          if (decision.allow === null) {
            const message = `The output of ${rule.tool} matched no case of its conditional rule: call a tool before answering.`;
            out.push(makeReason(reasonCodes.childRequired, rule, message));
            return;
          }
          const next = decision.allow[0];
          if (next === undefined) return;
          const message = `The output of ${rule.tool} selects ${next}: call it before answering.`;
          out.push(makeReason(reasonCodes.childRequired, rule, message, [next]));
        },
      });
    }
    for (const [tool, conditionals] of byTool) {
      on.readsOutput(tool);
      on.recordCompleted(tool, {
        record(draft, outcome) {
          const conditional = conditionals.map(({ rule, position }) =>
            decideConditional(position, rule, outcome.result),
          );
          draft.last = { tool, conditional };
        },
      });
    }
    return null;
  },
  initialState: () => ({}),
  startRun() {},
  describe: () => ({}),
  graph(rule, draw) {
    const on = rule.path ?? 'output';
    for (const entry of rule.mapping) draw.edge(rule.tool, entry.child, `${on} = ${entry.when}`);
    if (rule.default_child !== undefined) draw.edge(rule.tool, rule.default_child, 'default');
    if (rule.strict) draw.note(rule.tool, 'strict mapping');
  },
  formats: {
    toolrail: { normalize: normalizeMapping },
    letta: { conditional: lettaConditional },
  },
} satisfies RuleKindModule<'conditional', null>;
