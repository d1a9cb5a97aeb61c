import type { z } from 'zod';
import { diagnosticFor } from '../compile/diagnostic-for';
import { callFirst } from '../engine/call-first';
import { isDone } from '../engine/is-done';
import { isShadow } from '../engine/is-shadow';
import { makeReason } from '../engine/make-reason';
import { endReasonOrder } from '../engine/reason-order';
import { own } from '../formats/own-property';
import type { CommonRuleFields, Zod } from './common-rule-fields';
import { endNode } from './graph-draw';
import type { RuleKindModule } from './rule-kind-module';
import { toolMentions } from './tool-mentions';

function requiredBeforeExitSchema(zod: Zod, common: CommonRuleFields) {
  return zod.object({ ...common.toolRule, kind: zod.literal('required_before_exit') }).strict();
}

/** A `required_before_exit` rule: the run may not end until `tool` completed in it. */
export type RequiredBeforeExitRule = z.output<ReturnType<typeof requiredBeforeExitSchema>>;

declare module '../rule-kind-types' {
  interface RuleKindTypes {
    required_before_exit: {
      rule: RequiredBeforeExitRule;
      state: NoFields;
      view: NoFields;
      reasonCode: 'required_before_exit';
    };
  }
}

const reasonCodes = { requiredBeforeExit: 'required_before_exit' } as const;

/** `required_before_exit`: Letta's rule of that name; a terminal tool does not end the run before it. */
export const requiredBeforeExitKind = {
  kind: 'required_before_exit',
  reasonCodes,
  schema: requiredBeforeExitSchema,
  tools: (rule) => toolMentions([rule.tool], 'tool'),
  load: {
    reachability(rule, facts, out) {
      const never = facts.neverCallable(rule.tool);
      if (never !== null) {
        out.push(
          diagnosticFor(
            rule,
            'error',
            'required-never-visible',
            `${rule.tool} is required before the run may end, but it can never be called (${never}), so no run could end`,
            `remove the required_before_exit rule or the rule that blocks ${rule.tool}`,
          ),
        );
      } else if (facts.rulesOn('forbids_after', rule.tool).some((other) => other.forbids.includes(rule.tool))) {
        out.push(
          diagnosticFor(
            rule,
            'warning',
            'required-once-per-session',
            `${rule.tool} is required in every run but forbids itself after it completes, so only the first run can end`,
            `drop ${rule.tool} from its own forbids_after, or the required_before_exit rule`,
          ),
        );
      }
    },
  },
  index(rules, { on }) {
    for (const { rule, position } of rules) {
      on.trackDone(rule.tool, { scope: 'run', position });
      on.requireBeforeExit({ tool: rule.tool, rule });
      on.checkEveryEnd({
        order: endReasonOrder.requiredBeforeExit,
        position,
        check(context, out) {
          if (isDone(context, rule.tool, 'run')) return;
          const first = callFirst(context, { tools: [rule.tool], exclude: '', shadow: isShadow(rule) });
          out.push(makeReason(reasonCodes.requiredBeforeExit, rule, `Before finishing, call ${rule.tool}.`, first));
        },
      });
    }
    return null;
  },
  initialState: () => ({}),
  startRun() {},
  describe: () => ({}),
  graph(rule, draw) {
    draw.edge(rule.tool, endNode, 'required before exit', true);
  },
  formats: {
    letta: {
      required_before_exit: (entry) => ({
        body: { kind: 'required_before_exit', tool: own(entry, 'tool_name') },
        renames: { tool: 'tool_name' },
      }),
    },
  },
} satisfies RuleKindModule<'required_before_exit', null>;
