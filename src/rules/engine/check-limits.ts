import type { CompiledRuleOf } from '../compiled-rule-set';
import type { Reason } from '../reason';
import { ReasonCode } from '../reason-code';
import { slotValue } from '../slot-array';
import type { EvaluationContext } from './evaluation-context';
import { makeReason } from './make-reason';
import type { ToolRules } from './rule-index';

/** Attempts of `tool` so far in a scope (0 when no rule counts them). */
export function attempts(context: EvaluationContext, tool: string, scope: 'run' | 'session'): number {
  const slot = (scope === 'run' ? context.index.attemptsRunSlot : context.index.attemptsSessionSlot).get(tool);
  if (slot === undefined) return 0;
  return slotValue(scope === 'run' ? context.state.attemptsRun : context.state.attemptsSession, slot);
}

/** `max_count_reached` for every `max_count` rule on `tool` whose limit is used up in its scope. */
export function checkMaxCount(context: EvaluationContext, tool: string, own: ToolRules, out: Reason[]): void {
  for (const i of own.maxCount) {
    const rule = context.rules.rules[i] as CompiledRuleOf<'max_count'>;
    const used = attempts(context, tool, rule.scope);
    if (used < rule.limit) continue;
    out.push(
      makeReason(
        ReasonCode.maxCountReached,
        rule,
        `${tool} was already used ${used} time${used === 1 ? '' : 's'} in this ${rule.scope} (limit ${rule.limit}). Continue without it.`,
      ),
    );
  }
}

/** `unruled_tool_blocked` when a `default: block` rule (or a contract directory) does not cover `tool`. */
export function checkDefault(context: EvaluationContext, tool: string, out: Reason[]): void {
  for (const i of context.index.defaultRules) {
    const rule = context.rules.rules[i] as CompiledRuleOf<'default'>;
    if (rule.policy !== 'block') continue;
    const covered = rule.known === undefined ? context.index.mentioned.has(tool) : rule.known.includes(tool);
    if (covered) continue;
    out.push(
      makeReason(
        ReasonCode.unruledToolBlocked,
        rule,
        rule.known === undefined
          ? `${tool} is not covered by any rule, and tools without rules are blocked. Use another tool.`
          : `${tool} has no contract, and tools without a contract are blocked. Use another tool.`,
      ),
    );
  }
}
