import type { CompiledRuleSet } from '../compiled-rule-set';
import type { Reason } from '../reason';
import type { RuleState } from '../rule-state';
import { evaluationContext } from './evaluation-context';
import { narrowStrict } from './narrow';
import { ruleIndex } from './rule-index';
import type { ApprovalRules } from './rule-index-types';
import { runEndedReason } from './run-ended-reason';
import { catalogSet } from './sorted-catalog';
import { splitShadow } from './split-shadow';
import { toolReasons } from './tool-reasons';
import { unknownToolReason } from './unknown-tool-reason';

/** The verdict on one proposed call. */
export interface ValidateResult {
  readonly verdict: 'allowed' | 'blocked';
  /** Empty when allowed. */
  readonly reasons: Reason[];
  /** The call is allowed but must wait for a human decision (`requires_approval`). */
  readonly requiresApproval: boolean;
  /**
   * For an allowed call: the reasons shadow rules (`enforcement: shadow`) would have refused it with if
   * they were enforced. Absent when there are none.
   */
  readonly shadowRefused?: Reason[];
  /**
   * For an allowed call that needs no approval and that shadow rules would not refuse: a shadow
   * `requires_approval` rule would have made it wait for a human.
   */
  readonly shadowRequiresApproval?: true;
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
  const approvals = context.index.approvals.get(call.tool);
  const requiresApproval = approvals !== undefined && approvals.enforce !== null;
  const reasons = toolReasons(context, call.tool, call.args);
  if (context.index.shadowRules.size === 0) {
    if (reasons.length === 0) return { verdict: 'allowed', reasons, requiresApproval };
    if (rules.settings.onEmpty === 'allow-all' && narrowStrict(rules, state, catalog).ended !== undefined) {
      return { verdict: 'allowed', reasons: [], requiresApproval };
    }
    return { verdict: 'blocked', reasons, requiresApproval: false };
  }
  return withShadowRules({ rules, state, catalog, reasons, approvals });
}

/** {@link validate}'s verdict when some rules are only reported: they refuse nothing, but say what they would. */
function withShadowRules(input: {
  rules: CompiledRuleSet;
  state: RuleState;
  catalog: readonly string[];
  reasons: Reason[];
  approvals: ApprovalRules | undefined;
}): ValidateResult {
  const { rules, state, catalog, approvals } = input;
  const { enforced, shadow } = splitShadow(ruleIndex(rules), input.reasons);
  const requiresApproval = approvals !== undefined && approvals.enforce !== null;
  const allowAll =
    enforced.length > 0 &&
    rules.settings.onEmpty === 'allow-all' &&
    narrowStrict(rules, state, catalog).ended !== undefined;
  if (enforced.length > 0 && !allowAll) return { verdict: 'blocked', reasons: enforced, requiresApproval: false };
  const shadowApproval =
    !requiresApproval && shadow.length === 0 && approvals !== undefined && approvals.shadow !== null;
  return {
    verdict: 'allowed',
    reasons: allowAll ? [] : enforced,
    requiresApproval,
    ...(shadow.length > 0 ? { shadowRefused: shadow } : {}),
    ...(shadowApproval ? { shadowRequiresApproval: true as const } : {}),
  };
}
