import { condition } from '@temporalio/workflow';
import type { PreparedCall } from '../../src/dispatch/prepared-call';
import type { SessionContext } from './session-context';
import { publishSessionState } from './publish-session-state';
import { workflowNow } from '../workflow-now';

/** A call that needs a human decision, and why. */
export interface ApprovalRequest {
  prepared: PreparedCall;
  reason: string;
}

/** How one approval ended. */
export type ApprovalResult =
  { decision: 'approved' | 'denied'; reason?: string } | { decision: 'timed_out' | 'interrupted' };

/**
 * Puts `requests` up for approval (the `approveToolCall` update decides them), waits until each
 * is decided, the session's approval timeout passes (undecided ones count as timed out, i.e.
 * denied) or the user interrupts, and returns the result per call id.
 */
export async function awaitApprovals(
  context: SessionContext,
  requests: readonly ApprovalRequest[],
): Promise<Map<string, ApprovalResult>> {
  const deadline = workflowNow() + context.limits.approvalTimeoutMs;
  for (const { prepared, reason } of requests) {
    context.pendingApprovals.set(prepared.callId, {
      callId: prepared.callId,
      toolName: prepared.toolName,
      input: prepared.input,
      reason,
      destructive: prepared.destructive,
      deadline,
    });
  }
  const previousStatus = context.status;
  context.status = 'awaiting_approval';
  publishSessionState(context);
  const allDecided = (): boolean => requests.every(({ prepared }) => context.decisions.has(prepared.callId));
  await condition(() => allDecided() || context.interrupt !== undefined, context.limits.approvalTimeoutMs);

  const results = new Map<string, ApprovalResult>();
  for (const { prepared } of requests) {
    const decision = context.decisions.get(prepared.callId);
    context.pendingApprovals.delete(prepared.callId);
    if (decision === undefined) {
      // Late decisions are refused by the update's validator from now on.
      context.decisions.set(prepared.callId, { approved: false });
      results.set(prepared.callId, { decision: context.interrupt ? 'interrupted' : 'timed_out' });
    } else {
      results.set(prepared.callId, {
        decision: decision.approved ? 'approved' : 'denied',
        ...(decision.reason === undefined ? {} : { reason: decision.reason }),
      });
    }
  }
  context.status = previousStatus;
  publishSessionState(context);
  return results;
}
