import type { z } from 'zod';
import { callFirst } from '../engine/call-first';
import { isDone } from '../engine/is-done';
import { isShadow } from '../engine/is-shadow';
import { listText } from '../engine/list-text';
import { makeReason } from '../engine/make-reason';
import { reasonOrder } from '../engine/reason-order';
import type { EvaluationContext } from '../engine/rule-index-types';
import type { CommonRuleFields, Zod } from './common-rule-fields';
import type { RuleKindModule } from './rule-kind-module';
import { toolMentions } from './tool-mentions';

function requiresSchema(zod: Zod, common: CommonRuleFields) {
  return zod
    .object({
      ...common.toolRule,
      kind: zod.literal('requires'),
      after: common.toolList.min(1, 'list at least one tool in "after"'),
      mode: zod.enum(['all', 'any']).default('all'),
      scope: common.scope.default('session'),
    })
    .strict();
}

/** A `requires` rule: `tool` is blocked until all (`mode: any`: one) of `after` completed in `scope`. */
export type RequiresRule = z.output<ReturnType<typeof requiresSchema>>;

declare module '../rule-kind-types' {
  interface RuleKindTypes {
    requires: { rule: RequiresRule; state: NoFields; view: NoFields; reasonCode: 'prerequisite_not_met' };
  }
}

const reasonCodes = { prerequisiteNotMet: 'prerequisite_not_met' } as const;

/** The tools a `requires` rule still waits for: all missing ones, or (mode `any`, none done) the first. */
function missingOf(context: EvaluationContext, rule: RequiresRule): string[] {
  const missing = rule.after.filter((tool) => !isDone(context, tool, rule.scope));
  if (rule.mode === 'any') return missing.length === rule.after.length ? missing.slice(0, 1) : [];
  return missing;
}

/** `requires`: a tool waits for others to complete first (agent-tool-graph's `requires` and `needs_any`). */
export const requiresKind = {
  kind: 'requires',
  reasonCodes,
  schema: requiresSchema,
  tools: (rule) => [...toolMentions([rule.tool], 'tool'), ...toolMentions(rule.after, 'after')],
  load: {
    prerequisites: (rule) =>
      rule.mode === 'any'
        ? [{ tool: rule.tool, tools: rule.after, any: true }]
        : rule.after.map((after) => ({ tool: rule.tool, tools: [after], any: false })),
    blocksAtStart: {
      order: 10,
      why: (rule, tool) =>
        rule.tool === tool
          ? `a requires rule (${rule.ref.file}:${rule.ref.line ?? rule.ref.path}) makes it wait for ${rule.after.join(', ')}`
          : null,
    },
    identity: (rule) => ({ ...rule, after: [...rule.after].sort() }),
  },
  index(rules, { on }) {
    for (const { rule, position } of rules) {
      const shadow = isShadow(rule);
      for (const after of rule.after) {
        on.trackDone(after, { scope: rule.scope, position });
        on.affects(after, rule.tool);
      }
      on.prerequisites(rule.tool, { order: 10, position, shadow, missing: (context) => missingOf(context, rule) });
      on.checkTool(rule.tool, {
        order: reasonOrder.requires,
        position,
        check(context, tool, _args, out) {
          const missing = missingOf(context, rule);
          if (missing.length === 0) return;
          const scope = rule.scope === 'run' ? ' in this run' : '';
          const what = rule.mode === 'any' ? `one of ${listText(rule.after, 'or')}` : listText(missing);
          const first = callFirst(context, { tools: missing, exclude: tool, shadow });
          out.push(makeReason(reasonCodes.prerequisiteNotMet, rule, `Call ${what}${scope} before ${tool}.`, first));
        },
      });
    }
    return null;
  },
  initialState: () => ({}),
  startRun() {},
  describe: () => ({}),
  graph(rule, draw) {
    const label = `requires${rule.mode === 'any' ? ' (any)' : ''}${rule.scope === 'run' ? ' in run' : ''}`;
    for (const after of rule.after) draw.edge(after, rule.tool, label);
  },
  formats: {
    graph: [
      {
        section: 'requires',
        perToolKey: 'needs',
        body: (tool, list) => ({ kind: 'requires', tool, after: list, mode: 'all', scope: 'session' }),
      },
      {
        section: 'needs_any',
        perToolKey: 'needs_any',
        body: (tool, list) => ({ kind: 'requires', tool, after: list, mode: 'any', scope: 'session' }),
      },
    ],
  },
} satisfies RuleKindModule<'requires', null>;
