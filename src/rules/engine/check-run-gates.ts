import type { CompiledRuleOf } from '../compiled-rule-set';
import type { Reason } from '../reason';
import { ReasonCode } from '../reason-code';
import { builtinRuleRef } from '../rule-ref';
import { slotValue } from '../slot-array';
import type { EvaluationContext } from './evaluation-context';
import { sharedReason } from './evaluation-context';
import { listText } from './list-text';
import { makeReason } from './make-reason';

/** The reason every call is refused once the run has ended, or `null` while it goes on. */
export function runEndedReason(context: EvaluationContext): Reason | null {
  const { state, rules } = context;
  switch (state.ended) {
    case null:
      return null;
    case 'terminal': {
      const rule = state.endedBy === null ? undefined : rules.rules[state.endedBy];
      const tool = rule && 'tool' in rule ? rule.tool : 'a terminal tool';
      return makeReason(
        ReasonCode.runEnded,
        rule ?? builtinRuleRef('run-end'),
        `The run has ended: ${tool} completed and ends it. Do not call more tools; answer the user.`,
      );
    }
    case 'turn_limit':
      return makeReason(
        ReasonCode.turnLimit,
        builtinRuleRef('max-turns-per-run'),
        `The run reached its limit of ${rules.settings.maxTurnsPerRun} turns. Stop calling tools.`,
      );
    case 'no_tool_allowed':
      return makeReason(
        ReasonCode.noToolAllowed,
        builtinRuleRef('on-empty'),
        'No tool is allowed now, so the run has ended. Do not call more tools.',
      );
    case 'answered':
      return makeReason(
        ReasonCode.runEnded,
        builtinRuleRef('run-end'),
        'The run has ended with your answer. Wait for the next user message.',
      );
  }
}

/** `unknown_tool` when the tool is not in the catalog. */
export function unknownToolReason(tool: string, catalog: readonly string[]): Reason {
  const names = catalog.length > 12 ? `${catalog.slice(0, 12).join(', ')}, …` : catalog.join(', ');
  return makeReason(
    ReasonCode.unknownTool,
    builtinRuleRef('catalog'),
    `There is no tool named ${JSON.stringify(tool)}. Use one of the tools offered${names ? `: ${names}` : ''}.`,
  );
}

/** `forbidden_after` when an earlier completed call forbade this tool for the rest of the session. */
export function checkForbidden(context: EvaluationContext, tool: string, out: Reason[]): void {
  const slot = context.index.forbidSlot.get(tool);
  if (slot === undefined) return;
  const by = slotValue(context.state.forbidden, slot);
  if (by === 0) return;
  const rule = context.rules.rules[by - 1] as CompiledRuleOf<'forbids_after'>;
  out.push(
    makeReason(
      ReasonCode.forbiddenAfter,
      rule,
      `${tool} can no longer be used in this session: ${rule.tool} completed and forbids it. Continue without ${tool}.`,
    ),
  );
}

/** `init_required` while no call has completed in the run and `tool` is not an init tool. */
export function checkInit(context: EvaluationContext, tool: string, out: Reason[]): void {
  const { index, state, rules } = context;
  if (index.initRules.length === 0 || state.runCompleted > 0 || index.initTools.has(tool)) return;
  const first = rules.rules[index.initRules[0] ?? 0] as CompiledRuleOf<'init'>;
  const names = [...index.initTools];
  out.push(
    sharedReason(context, 'init', () =>
      makeReason(
        ReasonCode.initRequired,
        first,
        `Start this run with ${listText(names, 'or')}; other tools are available after that.`,
        names.slice(0, 1),
      ),
    ),
  );
}
