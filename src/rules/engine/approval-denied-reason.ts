import type { CompiledRuleSet } from '../compiled-rule-set';
import type { Reason } from '../reason';
import { ReasonCode } from '../reason-code';
import { builtinRuleRef } from '../rule-ref';
import { makeReason } from './make-reason';
import { ruleIndex, toolRules } from './rule-index';

/** The reason to give the model when a human refused a call that needed approval. */
export function approvalDeniedReason(rules: CompiledRuleSet, tool: string): Reason {
  const rule = toolRules(ruleIndex(rules), tool).approvalRule;
  return makeReason(
    ReasonCode.approvalDenied,
    (rule === null ? undefined : rules.rules[rule]) ?? builtinRuleRef('approval'),
    `A human refused this call of ${tool}. Do not retry it; continue another way or explain to the user.`,
  );
}
