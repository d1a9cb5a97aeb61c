import type { z } from 'zod';
import { own } from '../formats/own-property';
import type { CommonRuleFields, Zod } from './common-rule-fields';
import type { RuleKindModule } from './rule-kind-module';
import { toolMentions } from './tool-mentions';

function requiresApprovalSchema(zod: Zod, common: CommonRuleFields) {
  return zod.object({ ...common.toolRule, kind: zod.literal('requires_approval') }).strict();
}

/** A `requires_approval` rule: an allowed call of `tool` waits for a human decision before it runs. */
export type RequiresApprovalRule = z.output<ReturnType<typeof requiresApprovalSchema>>;

declare module '../rule-kind-types' {
  interface RuleKindTypes {
    requires_approval: { rule: RequiresApprovalRule; state: NoFields; view: NoFields; reasonCode: never };
  }
}

/** `requires_approval`: Letta's rule of that name. A refusal gives the built-in `approval_denied` reason. */
export const requiresApprovalKind = {
  kind: 'requires_approval',
  reasonCodes: {},
  schema: requiresApprovalSchema,
  tools: (rule) => toolMentions([rule.tool], 'tool'),
  load: {},
  index(rules, { on }) {
    for (const { rule } of rules) on.requireApproval(rule.tool, rule);
    return null;
  },
  initialState: () => ({}),
  startRun() {},
  describe: () => ({}),
  graph(rule, draw) {
    draw.note(rule.tool, 'needs approval');
  },
  formats: {
    letta: {
      requires_approval: (entry) => ({
        body: { kind: 'requires_approval', tool: own(entry, 'tool_name') },
        renames: { tool: 'tool_name' },
      }),
    },
  },
} satisfies RuleKindModule<'requires_approval', null>;
