import type { PreparedCall } from './prepared-call';

/**
 * Why a call needs a human's approval before it runs: its permission is `ask` (the tool's message),
 * or a rule requires approval; `undefined` when it needs none.
 */
export function approvalReason(call: PreparedCall, ruleRequiresApproval: boolean): string | undefined {
  if (call.permission === 'ask') return call.permissionMessage ?? `${call.toolName} needs permission`;
  return ruleRequiresApproval ? `a rule requires approval for ${call.toolName}` : undefined;
}
