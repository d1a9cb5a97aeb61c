import { CancellationScope, condition, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import { dependsOn, readsOutput, validate } from '../src/rules';
import {
  ToolErrorCode,
  createToolErrorOutcome,
  formatRuleRefusal,
  outcomeFromActivityFailure,
  partitionCalls,
  refusePreparedCall,
  refuseUnapprovedCall,
  toolActivityOptions,
} from '../src/dispatch';
import type { PreparedCall, ToolErrorOutcome, ToolOutcome, UnapprovedDecision } from '../src/dispatch';
import type { MessageRef } from '../src/conversation/conversation-log';
import type { SessionActivities } from '../activities/types';
import { catalogNames, note, recordCall, setStatus, workflowNow } from './session-state';
import type { SessionState } from './session-state';

/** A call's outcome, and its result message when the activity that ran it already stored it. */
export interface DispatchedCall {
  outcome: ToolOutcome;
  message?: MessageRef;
}

/** A call that may run, and whether a human approved it. */
type RunnableCall = { prepared: PreparedCall; approved: boolean };

/** A call the rules cleared, and why it still needs a human (`undefined`: it does not). */
interface ClearedCall {
  prepared: PreparedCall;
  needsApprovalBecause: string | undefined;
}

/**
 * Runs the calls of one model response and returns exactly one outcome per call, in call order.
 * Calls are judged as if they ran one after another: they are partitioned into batches (safe calls
 * together, unsafe ones alone, split where a rule makes one verdict depend on another call), and
 * each batch is validated against the rule state the batches before it left, put up for approval
 * where needed, run in its cancellation scope, and recorded.
 */
export async function dispatchCalls(
  state: SessionState,
  prepared: readonly (PreparedCall | ToolErrorOutcome)[],
): Promise<DispatchedCall[]> {
  const outcomes = new Map<string, ToolOutcome>();
  const messages = new Map<string, MessageRef>();
  const candidates = prepared.filter((entry): entry is PreparedCall => entry.type === 'prepared-call');
  for (const entry of prepared) if (entry.type === 'tool-error') outcomes.set(entry.callId, entry);
  const batches = partitionCalls(candidates, {
    maxConcurrency: state.limits.maxToolConcurrency,
    dependsOn: (earlier, later) =>
      dependsOn(
        state.rules,
        { tool: candidates[earlier]?.toolName ?? '' },
        { tool: candidates[later]?.toolName ?? '' },
      ),
  });
  const refuseAll = (calls: readonly PreparedCall[]): void => {
    for (const call of calls) {
      const message = 'Not run: the user interrupted the session.';
      outcomes.set(call.callId, refusePreparedCall(call, { reason: 'interrupted', message }));
    }
  };

  for (const batch of batches) {
    if (state.interrupt) {
      refuseAll(batch.calls);
      continue;
    }
    const cleared = judgeCalls(state, batch.calls, outcomes);
    const runnable = await approveWhereNeeded(state, cleared, outcomes);
    // An interrupt that arrived while this batch waited for approvals stops the calls that did not start.
    if (state.interrupt) {
      refuseAll(runnable.map(({ prepared: call }) => call));
      continue;
    }
    if (runnable.length === 0) continue;
    setStatus(state, 'running_tools');
    const executed = await runBatch(state, runnable);
    runnable.forEach(({ prepared: call }, index) => {
      const result = executed[index];
      if (result === undefined) return;
      outcomes.set(call.callId, result.outcome);
      if (result.message) messages.set(call.callId, result.message);
      recordCall(state, call, result.outcome);
    });
  }
  return prepared.map((entry) => {
    const message = messages.get(entry.callId);
    return { outcome: outcomes.get(entry.callId) ?? notRun(entry), ...(message ? { message } : {}) };
  });
}

/** Validate and permission: refused calls get their outcome now, the rest are cleared (some for a human to decide). */
function judgeCalls(
  state: SessionState,
  calls: readonly PreparedCall[],
  outcomes: Map<string, ToolOutcome>,
): ClearedCall[] {
  const cleared: ClearedCall[] = [];
  const catalog = catalogNames(state);
  for (const call of calls) {
    const verdict = validate(state.rules, state.ruleState, { tool: call.toolName, args: call.input }, catalog);
    const reasons = verdict.reasons.map(({ code, message, callFirst }) => ({
      code,
      message,
      ...(callFirst && { callFirst }),
    }));
    note(state, { kind: 'verdict', callId: call.callId, tool: call.toolName, verdict: verdict.verdict, reasons });
    if (verdict.verdict === 'blocked') {
      state.counters.blockedCalls += 1;
      const message = formatRuleRefusal(call.toolName, verdict.reasons);
      outcomes.set(call.callId, refusePreparedCall(call, { reason: 'rule-blocked', message }));
      continue;
    }
    if (call.permission === 'deny') {
      outcomes.set(call.callId, refusePreparedCall(call, { reason: 'permission-denied' }));
      continue;
    }
    const needsApprovalBecause =
      call.permission === 'ask'
        ? (call.permissionMessage ?? `${call.toolName} needs permission`)
        : verdict.requiresApproval
          ? `a rule requires approval for ${call.toolName}`
          : undefined;
    if (needsApprovalBecause !== undefined && !state.interactive) {
      const message = `${needsApprovalBecause}, and this session is not interactive: denied.`;
      outcomes.set(call.callId, refusePreparedCall(call, { reason: 'approval-denied', message }));
      continue;
    }
    cleared.push({ prepared: call, needsApprovalBecause });
  }
  return cleared;
}

/**
 * Puts the calls that need a human up for approval (the `approveToolCall` update decides them) and
 * waits until each is decided, the approval timeout passes (undecided ones are denied) or the user
 * interrupts. Returns the calls that may run; the others get their outcome.
 */
async function approveWhereNeeded(
  state: SessionState,
  cleared: readonly ClearedCall[],
  outcomes: Map<string, ToolOutcome>,
): Promise<RunnableCall[]> {
  const asking = cleared.filter(({ needsApprovalBecause }) => needsApprovalBecause !== undefined);
  if (asking.length > 0) {
    const deadline = workflowNow() + state.limits.approvalTimeoutMs;
    for (const { prepared, needsApprovalBecause } of asking) {
      const { callId, toolName, input, destructive } = prepared;
      const reason = needsApprovalBecause ?? '';
      state.decisions.delete(callId); // a decision on an earlier call with the same id does not carry over
      state.pendingApprovals.set(callId, { callId, toolName, input, reason, destructive, deadline });
    }
    const statusBefore = state.status;
    setStatus(state, 'awaiting_approval');
    const allDecided = (): boolean => asking.every(({ prepared }) => state.decisions.has(prepared.callId));
    await condition(() => allDecided() || state.interrupt !== undefined, state.limits.approvalTimeoutMs);
    for (const { prepared } of asking) state.pendingApprovals.delete(prepared.callId);
    setStatus(state, statusBefore);
  }

  const runnable: RunnableCall[] = [];
  for (const { prepared, needsApprovalBecause } of cleared) {
    if (needsApprovalBecause === undefined) {
      runnable.push({ prepared, approved: false });
      continue;
    }
    const decided = closeDecision(state, prepared.callId);
    note(state, { kind: 'approval', callId: prepared.callId, tool: prepared.toolName, ...decided });
    if (decided.decision === 'approved') runnable.push({ prepared, approved: true });
    else outcomes.set(prepared.callId, refuseUnapprovedCall(prepared, decided));
  }
  return runnable;
}

/** How the approval of one call ended; an undecided call counts as denied, and late decisions are refused from now on. */
function closeDecision(
  state: SessionState,
  callId: string,
): { decision: 'approved'; reason?: string } | UnapprovedDecision {
  const decision = state.decisions.get(callId);
  if (decision === undefined) {
    state.decisions.set(callId, { approved: false });
    return { decision: state.interrupt ? 'interrupted' : 'timed_out' };
  }
  const reason = decision.reason === undefined ? {} : { reason: decision.reason };
  return { decision: decision.approved ? 'approved' : 'denied', ...reason };
}

/**
 * Runs one batch: every call's activity is scheduled at once (in one workflow task) inside the
 * batch's cancellation scope, each in a child scope of its own. With `siblingAbort: 'on-error'` the
 * first failing call cancels the rest of the batch; an interrupt cancels only `cancel` calls
 * (`interruptRun` in `turn.ts`). Resolves to one outcome per call, in call order; never rejects.
 */
async function runBatch(
  state: SessionState,
  calls: readonly RunnableCall[],
): Promise<{ outcome: ToolOutcome; message?: MessageRef }[]> {
  const batchScope = new CancellationScope();
  let failedFirst: { callId: string; toolName: string } | undefined;
  const abortSiblings = (prepared: PreparedCall): void => {
    if (state.limits.siblingAbort !== 'on-error' || failedFirst !== undefined || calls.length < 2) return;
    failedFirst = { callId: prepared.callId, toolName: prepared.toolName };
    batchScope.cancel();
  };
  const runOne = async ({
    prepared,
    approved,
  }: RunnableCall): Promise<{ outcome: ToolOutcome; message?: MessageRef }> => {
    const running = { prepared, scope: new CancellationScope(), interrupted: false };
    state.running.set(prepared.callId, running);
    try {
      const { sessionId, turnIndex: turn, interactive } = state;
      const rulesReadOutput = readsOutput(state.rules, prepared.toolName);
      const input = { sessionId, turn, interactive, prepared, approved, rulesReadOutput };
      const executed = await running.scope.run(() => executeToolActivity(prepared)(input));
      if (executed.outcome.type === 'tool-error') abortSiblings(prepared);
      return executed;
    } catch (error) {
      const byInterrupt = running.interrupted;
      const bySibling = !byInterrupt && failedFirst !== undefined && failedFirst.callId !== prepared.callId;
      if (!byInterrupt && !bySibling) abortSiblings(prepared);
      return {
        outcome: outcomeFromActivityFailure(
          prepared,
          error,
          byInterrupt ? 'interrupt' : bySibling ? failedFirst : undefined,
        ),
      };
    } finally {
      state.running.delete(prepared.callId);
    }
  };
  return batchScope.run(() => Promise.all(calls.map(runOne)));
}

/** The activity that executes one prepared call, with the call's own options (`toolActivityOptions`). */
function executeToolActivity(prepared: PreparedCall): SessionActivities['executeTool'] {
  const { local, options } = toolActivityOptions(prepared);
  return (local ? proxyLocalActivities<SessionActivities>(options) : proxyActivities<SessionActivities>(options))
    .executeTool;
}

/** The outcome of a call that never got one (it cannot happen; fail closed if it does). */
function notRun(entry: PreparedCall | ToolErrorOutcome): ToolOutcome {
  const message = 'The call did not run.';
  return createToolErrorOutcome({
    callId: entry.callId,
    toolName: entry.toolName,
    code: ToolErrorCode.INTERRUPTED,
    message,
  });
}
