import { createToolErrorOutcome } from './create-tool-error-outcome';
import type { PreparedCall } from './prepared-call';
import { ToolErrorCode } from './tool-error-code';
import type { ToolErrorOutcome } from './tool-outcome';

/** Why the workflow refuses a prepared call without running it. */
export type PreparedCallRefusal =
  | { readonly reason: 'permission-denied' }
  | { readonly reason: 'approval-denied'; readonly message?: string }
  | { readonly reason: 'approval-timeout' }
  | { readonly reason: 'rule-blocked'; readonly message: string }
  | { readonly reason: 'interrupted'; readonly message?: string };

/** The outcome of a prepared call the workflow refuses (its `deny` verdict, a human's no, a rule). */
export function refusePreparedCall(prepared: PreparedCall, refusal: PreparedCallRefusal): ToolErrorOutcome {
  const base = { callId: prepared.callId, toolName: prepared.toolName };
  switch (refusal.reason) {
    case 'permission-denied':
      return createToolErrorOutcome({
        ...base,
        code: ToolErrorCode.PERMISSION_DENIED,
        message: prepared.permissionMessage ?? `Permission to use ${prepared.toolName} was denied.`,
      });
    case 'approval-denied':
      return createToolErrorOutcome({
        ...base,
        code: ToolErrorCode.APPROVAL_DENIED,
        message: refusal.message ?? `A human declined this ${prepared.toolName} call. Do not retry it as is.`,
      });
    case 'approval-timeout':
      return createToolErrorOutcome({
        ...base,
        code: ToolErrorCode.APPROVAL_TIMEOUT,
        message: `No human approved this ${prepared.toolName} call in time; it did not run.`,
      });
    case 'rule-blocked':
      return createToolErrorOutcome({ ...base, code: ToolErrorCode.RULE_BLOCKED, message: refusal.message });
    case 'interrupted':
      return createToolErrorOutcome({
        ...base,
        code: ToolErrorCode.INTERRUPTED,
        message: refusal.message ?? `The ${prepared.toolName} call was interrupted before it ran.`,
      });
  }
}

/** How an approval ended for a call that does not run. */
export interface UnapprovedDecision {
  readonly decision: 'denied' | 'timed_out' | 'interrupted';
  /** The human's reason, for `denied`. */
  readonly reason?: string;
}

/** The outcome of a call a human denied, nobody decided in time, or an interrupt overtook. */
export function refuseUnapprovedCall(
  prepared: PreparedCall,
  { decision, reason }: UnapprovedDecision,
): ToolErrorOutcome {
  if (decision === 'timed_out') return refusePreparedCall(prepared, { reason: 'approval-timeout' });
  if (decision === 'interrupted') return refusePreparedCall(prepared, { reason: 'interrupted' });
  const message = reason
    ? `A human declined this ${prepared.toolName} call: ${reason}. Do not retry it as is.`
    : undefined;
  return refusePreparedCall(prepared, { reason: 'approval-denied', ...(message === undefined ? {} : { message }) });
}
