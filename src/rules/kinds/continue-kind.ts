import type { z } from 'zod';
import { isShadow } from '../engine/is-shadow';
import { makeReason } from '../engine/make-reason';
import { endReasonOrder } from '../engine/reason-order';
import { own } from '../formats/own-property';
import { checkAfterTerminal } from './check-after-terminal';
import type { CommonRuleFields, Zod } from './common-rule-fields';
import type { RuleKindModule } from './rule-kind-module';
import { toolMentions } from './tool-mentions';

function continueSchema(zod: Zod, common: CommonRuleFields) {
  return zod.object({ ...common.toolRule, kind: zod.literal('continue') }).strict();
}

/** A `continue` rule: right after `tool` completed, a text answer is refused (until the next completed call). */
export type ContinueRule = z.output<ReturnType<typeof continueSchema>>;

declare module '../rule-kind-types' {
  interface RuleKindTypes {
    continue: { rule: ContinueRule; state: NoFields; view: NoFields; reasonCode: 'continue_required' };
  }
}

const reasonCodes = { continueRequired: 'continue_required' } as const;

/** `continue`: Letta's `continue_loop`. One reason per tool (its first rule, and its first shadow rule). */
export const continueKind = {
  kind: 'continue',
  reasonCodes,
  schema: continueSchema,
  tools: (rule) => toolMentions([rule.tool], 'tool'),
  load: { neverFires: checkAfterTerminal },
  index(rules, { on }) {
    const seen = new Set<string>();
    for (const { rule, position } of rules) {
      const key = `${isShadow(rule) ? 'shadow' : 'enforce'}:${rule.tool}`;
      if (seen.has(key)) continue;
      seen.add(key);
      on.checkEndAfter(rule.tool, {
        order: endReasonOrder.continue,
        position,
        check(_context, out) {
          const message = `${rule.tool} requires you to continue: call another tool before answering.`;
          out.push(makeReason(reasonCodes.continueRequired, rule, message));
        },
      });
    }
    return null;
  },
  initialState: () => ({}),
  startRun() {},
  describe: () => ({}),
  graph(rule, draw) {
    draw.note(rule.tool, 'continue');
  },
  formats: {
    letta: {
      continue_loop: (entry) => ({
        body: { kind: 'continue', tool: own(entry, 'tool_name') },
        renames: { tool: 'tool_name' },
      }),
    },
  },
} satisfies RuleKindModule<'continue', null>;
