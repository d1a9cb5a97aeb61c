import type { ToolApprovalStatus } from 'ai';
import { formatRuleRefusal } from '../dispatch';
import type { Reason } from '../rules';

/**
 * The one place where the rules' verdicts become the loop's behaviour: a refusal is the AI SDK's
 * `denied` status with the text the model reads. (Shadow mode, reporting without enforcing, changes
 * only what this module returns.)
 */
export function refusalStatus(tool: string, reasons: readonly Reason[]): ToolApprovalStatus {
  return { type: 'denied', reason: formatRuleRefusal(tool, reasons) };
}

/** The status of a call held behind one whose result the browser sends in a later request. */
export function heldStatus(tool: string, behind: { tool: string; callId: string }): ToolApprovalStatus {
  return {
    type: 'denied',
    reason:
      `Not run: ${tool} came after ${behind.tool} (call ${behind.callId}), whose outcome is not known yet. ` +
      `Call ${tool} again once it is.`,
  };
}

/** Why a call waits for a human when only its place does: it comes after a call that waits for one. */
export function queuedReason(tool: string, behind: { tool: string; callId: string }): string {
  return `${tool} comes after ${behind.tool} (call ${behind.callId}), which waits for a decision: it runs after it`;
}

/** The status of a call a human must decide, with why (shown to the approver). */
export function humanStatus(reason: string): ToolApprovalStatus {
  return { type: 'user-approval', reason };
}
