import type { CompiledRuleSet } from '../compiled-rule-set';
import type { Reason } from '../reason';
import type { RuleState } from '../rule-state';
import { runEndedReason, unknownToolReason } from './check-run-gates';
import { catalogSet, evaluationContext } from './evaluation-context';
import { narrowStrict } from './narrow';
import { toolRules } from './rule-index';
import { toolReasons } from './tool-reasons';

/** The verdict on one proposed call. */
export interface ValidateResult {
  readonly verdict: 'allowed' | 'blocked';
  /** Empty when allowed. */
  readonly reasons: Reason[];
  /** The call is allowed but must wait for a human decision (`requires_approval`). */
  readonly requiresApproval: boolean;
}

/**
 * Checks one proposed call, with its arguments, against the state left by the calls before it
 * (of this response too: validate, run, `record`, then validate the next). Never changes the state.
 */
export function validate(
  rules: CompiledRuleSet,
  state: RuleState,
  call: { tool: string; args: unknown },
  catalog: readonly string[],
): ValidateResult {
  const context = evaluationContext(rules, state);
  const ended = runEndedReason(context);
  if (ended !== null) return { verdict: 'blocked', reasons: [ended], requiresApproval: false };
  if (!catalogSet(catalog).has(call.tool)) {
    return { verdict: 'blocked', reasons: [unknownToolReason(call.tool, catalog)], requiresApproval: false };
  }
  const requiresApproval = toolRules(context.index, call.tool).approvalRule !== null;
  const reasons = toolReasons(context, call.tool, call.args);
  if (reasons.length === 0) return { verdict: 'allowed', reasons, requiresApproval };
  if (rules.settings.onEmpty === 'allow-all' && narrowStrict(rules, state, catalog).ended !== undefined) {
    return { verdict: 'allowed', reasons: [], requiresApproval };
  }
  return { verdict: 'blocked', reasons, requiresApproval: false };
}
