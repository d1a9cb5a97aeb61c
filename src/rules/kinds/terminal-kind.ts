import type { z } from 'zod';
import { exitPending } from '../engine/exit-pending';
import { isShadow } from '../engine/is-shadow';
import { reasonOrder } from '../engine/reason-order';
import { ruleEndedRunReason } from '../engine/rule-ended-run-reason';
import { own } from '../formats/own-property';
import type { CommonRuleFields, Zod } from './common-rule-fields';
import { endNode } from './graph-draw';
import type { Positioned, RuleKindModule, RuleOfKind } from './rule-kind-module';
import { toolMentions } from './tool-mentions';

function terminalSchema(zod: Zod, common: CommonRuleFields) {
  return zod.object({ ...common.toolRule, kind: zod.literal('terminal') }).strict();
}

/** A `terminal` rule: when `tool` completes, the run ends; later calls of that response are refused. */
export type TerminalRule = z.output<ReturnType<typeof terminalSchema>>;

declare module '../rule-kind-types' {
  interface RuleKindTypes {
    terminal: { rule: TerminalRule; state: NoFields; view: NoFields; reasonCode: 'run_ended' };
  }
}

type Terminal = Positioned<RuleOfKind<'terminal'>>;

/** The first enforced and the first shadow terminal rule of each tool. */
function firstRulesByTool(rules: readonly Terminal[]) {
  const byTool = new Map<string, { enforce?: Terminal; shadow?: Terminal }>();
  for (const entry of rules) {
    const first = byTool.get(entry.rule.tool) ?? {};
    if (isShadow(entry.rule)) first.shadow ??= entry;
    else first.enforce ??= entry;
    byTool.set(entry.rule.tool, first);
  }
  return byTool;
}

/**
 * `terminal`: Letta's `exit_loop`. A run with a `required_before_exit` tool still missing goes on. A
 * shadow terminal rule does not end the run: the state remembers it (`endedBy` with `ended` null), and
 * every later call of the run is reported with `run_ended`.
 */
export const terminalKind = {
  kind: 'terminal',
  reasonCodes: { runEnded: 'run_ended' },
  schema: terminalSchema,
  tools: (rule) => toolMentions([rule.tool], 'tool'),
  load: {},
  index(rules, { on }) {
    for (const [tool, { enforce, shadow }] of firstRulesByTool(rules)) {
      on.affectsAll(tool);
      on.recordCompleted(tool, {
        record(draft, _outcome, { index }) {
          if (enforce !== undefined) {
            if (exitPending({ index, state: draft }, false)) return;
            draft.ended = 'terminal';
            draft.endedBy = enforce.position;
          } else if (shadow !== undefined && draft.ended === null && draft.endedBy === null) {
            if (!exitPending({ index, state: draft }, true)) draft.endedBy = shadow.position;
          }
        },
      });
    }
    const firstShadow = rules.find(({ rule }) => isShadow(rule));
    if (firstShadow === undefined) return null;
    on.checkEveryTool({
      order: reasonOrder.runEnded,
      position: firstShadow.position,
      check(context, _tool, _args, out) {
        const { ended, endedBy } = context.state;
        if (ended === null && endedBy !== null) out.push(ruleEndedRunReason(context.rules.rules[endedBy]));
      },
    });
    return null;
  },
  initialState: () => ({}),
  startRun() {},
  describe: () => ({}),
  graph(rule, draw) {
    draw.edge(rule.tool, endNode, 'terminal');
  },
  formats: {
    letta: {
      exit_loop: (entry) => ({
        body: { kind: 'terminal', tool: own(entry, 'tool_name') },
        renames: { tool: 'tool_name' },
      }),
    },
  },
} satisfies RuleKindModule<'terminal', null>;
