import type { CompiledRuleOf } from '../compiled-rule-set';
import type { Reason } from '../reason';
import { ReasonCode } from '../reason-code';
import type { EvaluationContext } from './evaluation-context';
import { sharedReason } from './evaluation-context';
import { listText } from './list-text';
import { makeReason } from './make-reason';
import type { ToolRules } from './rule-index';
import { toolRules } from './rule-index';

/**
 * Rules on the last completed tool of the run: `child` and `parent` allow only their children right
 * after it, `conditional` only the child its output chose.
 */
export function checkAfterLast(context: EvaluationContext, tool: string, out: Reason[]): void {
  const last = context.state.last;
  if (last === null) return;
  const rules = toolRules(context.index, last.tool);
  for (const i of rules.childRules) {
    const rule = context.rules.rules[i] as CompiledRuleOf<'child'> | CompiledRuleOf<'parent'>;
    if (rule.children.includes(tool)) continue;
    out.push(
      sharedReason(context, `after:${i}`, () =>
        makeReason(
          rule.kind === 'child' ? ReasonCode.childRequired : ReasonCode.parentRequired,
          rule,
          `After ${last.tool}, call ${listText(rule.children, 'or')} next.`,
        ),
      ),
    );
  }
  for (const decision of last.conditional) {
    if (decision.allow === null || decision.allow.includes(tool)) continue;
    const rule = context.rules.rules[decision.rule] as CompiledRuleOf<'conditional'>;
    const next = decision.allow[0];
    out.push(
      sharedReason(context, `conditional:${decision.rule}`, () =>
        makeReason(
          ReasonCode.childRequired,
          rule,
          next === undefined
            ? `The output of ${last.tool} matched none of its expected values, so no tool may follow it. Answer the user instead.`
            : `The output of ${last.tool} ${decision.matched === null ? 'selects the default next tool' : `was ${JSON.stringify(decision.matched)}`}: call ${next} next.`,
        ),
      ),
    );
  }
}

/** `parent_required` when `tool` is the child of a `parent` rule and its parent did not just complete. */
export function checkParents(context: EvaluationContext, own: ToolRules, out: Reason[]): void {
  const parents = own.parentsOf;
  if (parents.length === 0) return;
  const lastTool = context.state.last?.tool;
  for (const i of parents) {
    const rule = context.rules.rules[i] as CompiledRuleOf<'parent'>;
    if (rule.tool === lastTool) continue;
    out.push(
      sharedReason(context, `parent:${i}`, () =>
        makeReason(
          ReasonCode.parentRequired,
          rule,
          `${listText(rule.children, 'and')} can only be called right after ${rule.tool}. Call ${rule.tool} first.`,
          [rule.tool],
        ),
      ),
    );
  }
}
