import type { z } from 'zod';
import { diagnosticFor } from '../compile/diagnostic-for';
import { isShadow } from '../engine/is-shadow';
import { listText } from '../engine/list-text';
import { makeReason } from '../engine/make-reason';
import { reasonOrder } from '../engine/reason-order';
import { own } from '../formats/own-property';
import type { CommonRuleFields, Zod } from './common-rule-fields';
import { startNode } from './graph-draw';
import type { RuleKindModule, RuleOfKind } from './rule-kind-module';
import { toolMentions } from './tool-mentions';

function initSchema(zod: Zod, common: CommonRuleFields) {
  return zod.object({ ...common.toolRule, kind: zod.literal('init') }).strict();
}

/** An `init` rule: at the start of each run only init tools are allowed (several init rules: any of them). */
export type InitRule = z.output<ReturnType<typeof initSchema>>;

declare module '../rule-kind-types' {
  interface RuleKindTypes {
    init: { rule: InitRule; state: NoFields; view: NoFields; reasonCode: 'init_required' };
  }
}

const reasonCodes = { initRequired: 'init_required' } as const;

/** The init tools of the enforced rules, or (when there are none) of the shadow ones, with the first rule. */
interface InitGate {
  readonly tools: ReadonlySet<string>;
  readonly first: RuleOfKind<'init'>;
}

function gateOf(rules: readonly RuleOfKind<'init'>[]): InitGate | null {
  const first = rules[0];
  return first === undefined ? null : { tools: new Set(rules.map((rule) => rule.tool)), first };
}

/** `init`: Letta's `run_first`. The only union among the rules: any init tool may start the run. */
export const initKind = {
  kind: 'init',
  reasonCodes,
  schema: initSchema,
  tools: (rule) => toolMentions([rule.tool], 'tool'),
  load: {
    startOfRun(rule, facts, out) {
      const why = facts.blockedAtStart(rule.tool);
      if (why === null) return;
      out.push(
        diagnosticFor(
          rule,
          'error',
          'init-blocked',
          `init tool ${rule.tool} is blocked at the start of a run: ${why}`,
          `remove the init rule, or the rule that blocks ${rule.tool} at the start`,
        ),
      );
    },
  },
  index(rules, { on }) {
    const first = rules[0];
    if (first === undefined) return null;
    for (const { rule } of rules) on.affectsAll(rule.tool);
    // Enforced init rules decide; shadow ones would only widen their union, so they count when none is enforced.
    const gate =
      gateOf(rules.flatMap(({ rule }) => (isShadow(rule) ? [] : [rule]))) ?? gateOf(rules.map(({ rule }) => rule));
    if (gate === null) return null;
    const names = [...gate.tools];
    const message = `Start this run with ${listText(names, 'or')}; other tools are available after that.`;
    const reason = makeReason(reasonCodes.initRequired, gate.first, message, names.slice(0, 1));
    on.checkEveryTool({
      order: reasonOrder.init,
      position: first.position,
      check(context, tool, _args, out) {
        if (context.state.runCompleted === 0 && !gate.tools.has(tool)) out.push(reason);
      },
    });
    return null;
  },
  initialState: () => ({}),
  startRun() {},
  describe: () => ({}),
  graph(rule, draw) {
    draw.edge(startNode, rule.tool, 'init');
  },
  formats: {
    letta: {
      run_first(entry, at, sink) {
        if (own(entry, 'args') !== undefined && own(entry, 'args') !== null) {
          sink.report(
            'warning',
            'prefilled-args-ignored',
            [...at, 'args'],
            'prefilled arguments (args) of run_first are not applied by toolrail',
            'pass the values in the tool call, or set them in the tool itself',
          );
        }
        return { body: { kind: 'init', tool: own(entry, 'tool_name') }, renames: { tool: 'tool_name' } };
      },
    },
  },
} satisfies RuleKindModule<'init', null>;
