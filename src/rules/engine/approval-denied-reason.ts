import type { CompiledRuleSet } from '../compiled-rule-set';
import type { Reason } from '../reason';
import { builtinRuleRef } from '../rule-ref';
import { makeReason } from './make-reason';
import { ruleIndex } from './rule-index';

/** The reason to give the model when a human refused a call that needed approval. */
export function approvalDeniedReason(rules: CompiledRuleSet, tool: string): Reason {
  const approvals = ruleIndex(rules).approvals.get(tool);
  return makeReason(
    'approval_denied',
    approvals?.enforce ?? approvals?.shadow ?? builtinRuleRef('approval'),
    `A human refused this call of ${tool}. Do not retry it; continue another way or explain to the user.`,
  );
}
