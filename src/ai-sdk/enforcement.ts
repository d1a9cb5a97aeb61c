import type { ToolApprovalStatus } from 'ai';
import { formatRuleRefusal } from '../dispatch';
import type { NarrowResult, Reason } from '../rules';
import { RuleBlockedError } from './errors/rule-blocked-error';

// The one place where the rules' verdicts become the loop's behaviour: the tools offered, a refused
// call's status or error, what waits for a human. Shadow rules never reach it: the engine keeps the
// tools they would hide visible and allows the calls they would refuse, and the policy reports what
// they would have done (`rule-shadowed`), with the text of `refusalMessage` the model would have read.

/** The tools a step offers the model: the visible ones. */
export function offeredTools(narrowed: NarrowResult): string[] {
  return narrowed.visible;
}

/** The text the model reads for a call the rules refuse: the reasons, then the tools to call first. */
export function refusalMessage(tool: string, reasons: readonly Reason[]): string {
  return formatRuleRefusal(tool, reasons);
}

/** A call the rules refuse, as `toolApproval` answers it: the AI SDK's `denied`, with the text the model reads. */
export function refusalStatus(tool: string, reasons: readonly Reason[]): ToolApprovalStatus {
  return { type: 'denied', reason: refusalMessage(tool, reasons) };
}

/** A call the rules refuse when it runs (or when it is parsed): the error the model reads as its result. */
export function refusalError(tool: string, reasons: readonly Reason[]): RuleBlockedError {
  return new RuleBlockedError({ toolName: tool, reasons, message: refusalMessage(tool, reasons) });
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
