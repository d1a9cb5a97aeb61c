import type { CompiledRuleOf, CompiledRuleSet } from '../compiled-rule-set';
import type { Reason } from '../reason';
import { ReasonCode } from '../reason-code';
import { builtinRuleRef } from '../rule-ref';
import type { RuleState } from '../rule-state';
import { callFirst } from './call-first';
import type { EvaluationContext } from './evaluation-context';
import { evaluationContext, isDone } from './evaluation-context';
import { listText } from './list-text';
import { makeReason } from './make-reason';
import { toolRules } from './rule-index';

/** Whether a text answer may end the run now, and if not, why. */
export interface CheckEndResult {
  readonly endsRun: boolean;
  readonly reasons: Reason[];
}

function pendingAfterLast(context: EvaluationContext, out: Reason[]): void {
  const last = context.state.last;
  if (last === null) return;
  const rules = toolRules(context.index, last.tool);
  if (rules.continueRule !== null) {
    out.push(
      makeReason(
        ReasonCode.continueRequired,
        context.rules.rules[rules.continueRule] ?? builtinRuleRef('run-end'),
        `${last.tool} requires you to continue: call another tool before answering.`,
      ),
    );
  }
  for (const i of rules.childRules) {
    const rule = context.rules.rules[i] as CompiledRuleOf<'child'> | CompiledRuleOf<'parent'>;
    out.push(
      makeReason(
        rule.kind === 'parent' ? ReasonCode.parentRequired : ReasonCode.childRequired,
        rule,
        `After ${last.tool}, call ${listText(rule.children, 'or')} before answering.`,
        rule.children.slice(0, 1),
      ),
    );
  }
  for (const decision of last.conditional) {
    if (decision.allow === null) {
      out.push(
        makeReason(
          ReasonCode.childRequired,
          context.rules.rules[decision.rule] ?? builtinRuleRef('run-end'),
          `The output of ${last.tool} matched no case of its conditional rule: call a tool before answering.`,
        ),
      );
      continue;
    }
    const next = decision.allow[0];
    if (next === undefined) continue;
    out.push(
      makeReason(
        ReasonCode.childRequired,
        context.rules.rules[decision.rule] ?? builtinRuleRef('run-end'),
        `The output of ${last.tool} selects ${next}: call it before answering.`,
        [next],
      ),
    );
  }
}

function pendingRequired(context: EvaluationContext, out: Reason[]): void {
  for (const i of context.index.requiredRules) {
    const rule = context.rules.rules[i] as CompiledRuleOf<'required_before_exit'>;
    if (isDone(context, rule.tool, 'run')) continue;
    out.push(
      makeReason(
        ReasonCode.requiredBeforeExit,
        rule,
        `Before finishing, call ${rule.tool}.`,
        callFirst(context, [rule.tool], ''),
      ),
    );
  }
}

/**
 * May a text answer end the run now? Not while the last completed tool has a `continue` rule, a
 * `child` or `parent` rule or a conditional rule (even one whose output matched no key and that has
 * no default child, as Letta forces a tool call then), or a `required_before_exit` tool has not completed in
 * the run. After `maxTurnsPerRun` turns the answer ends the run anyway, with reason `turn_limit`.
 * An already ended run gives `endsRun: true` and no reasons.
 */
export function checkEnd(rules: CompiledRuleSet, state: RuleState): CheckEndResult {
  if (state.ended !== null) return { endsRun: true, reasons: [] };
  const context = evaluationContext(rules, state);
  const reasons: Reason[] = [];
  pendingAfterLast(context, reasons);
  pendingRequired(context, reasons);
  if (reasons.length === 0) return { endsRun: true, reasons };
  if (state.runTurns >= rules.settings.maxTurnsPerRun) {
    const limit = makeReason(
      ReasonCode.turnLimit,
      builtinRuleRef('max-turns-per-run'),
      `The run reached its limit of ${rules.settings.maxTurnsPerRun} turns and ends here.`,
    );
    return { endsRun: true, reasons: [limit] };
  }
  return { endsRun: false, reasons };
}
