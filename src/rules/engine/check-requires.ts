import type { CompiledRuleOf } from '../compiled-rule-set';
import type { Reason } from '../reason';
import { ReasonCode } from '../reason-code';
import { callFirst, missingOfRequires } from './call-first';
import type { EvaluationContext } from './evaluation-context';
import { listText } from './list-text';
import { makeReason } from './make-reason';
import type { ToolRules } from './rule-index';

/** `prerequisite_not_met` for every `requires` rule on `tool` whose tools have not completed in scope. */
export function checkRequires(context: EvaluationContext, tool: string, own: ToolRules, out: Reason[]): void {
  for (const i of own.requires) {
    const rule = context.rules.rules[i] as CompiledRuleOf<'requires'>;
    const missing = missingOfRequires(context, rule);
    if (missing.length === 0) continue;
    const scope = rule.scope === 'run' ? ' in this run' : '';
    const what =
      rule.mode === 'any'
        ? `one of ${listText(rule.after, 'or')}`
        : listText(missing.filter((name) => rule.after.includes(name)));
    out.push(
      makeReason(
        ReasonCode.prerequisiteNotMet,
        rule,
        `Call ${what}${scope} before ${tool}.`,
        callFirst(context, missing, tool),
      ),
    );
  }
}
