import { CancellationScope, condition, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import { dependsOn, readsOutput, validate } from '../src/rules';
import {
  approvalReason,
  formatRuleRefusal,
  partitionCalls,
  refusePreparedCall,
  refuseUnapprovedCall,
  toolActivityOptions,
} from '../src/dispatch';
import type {
  DispatchedCall,
  PreparedCall,
  SettledCalls,
  ToolErrorOutcome,
  ToolOutcome,
  UnapprovedDecision,
} from '../src/dispatch';
import type { MessageRef } from '../src/session';
import type { SessionActivities } from '../activities';
import { catalogNames, note, recordCall, setStatus } from './session-state';
import type { SessionState } from './session-state';
import { workflowNow } from './workflow-now';
import { traceBatch, traceToolCall, traceVerdict } from './session-tracing';
import { settleFailedCall } from './settle-failed-call';
import { withStore } from './wait-for-store';

/** A call that may run, and whether a human approved it. */
type RunnableCall = { prepared: PreparedCall; approved: boolean };

/** A call the rules cleared, and why it still needs a human (`undefined`: it does not). */
interface ClearedCall {
  prepared: PreparedCall;
  needsApprovalBecause: string | undefined;
}

/**
 * Runs the calls of one model response: exactly one outcome per call. Calls are judged as if they
 * ran one after another: they are partitioned into batches (safe calls together, unsafe ones alone,
 * split where a rule makes one verdict depend on another call), and each batch is validated against
 * the rule state the batches before it left, put up for approval where needed, run in its
 * cancellation scope, and recorded. Between batches, `betweenBatches` may take the calls settled so
 * far (`settle()`: their outcomes in call order, and the calls still to come, which is what
 * continue-as-new would carry). Resolves to the calls nobody took, in call order.
 */
export async function dispatchCalls(
  state: SessionState,
  prepared: readonly (PreparedCall | ToolErrorOutcome)[],
  betweenBatches: (settle: () => SettledCalls) => Promise<void>,
): Promise<DispatchedCall[]> {
  const outcomes = new Map<string, ToolOutcome>();
  const messages = new Map<string, MessageRef>();
  const candidates = prepared.filter((entry): entry is PreparedCall => entry.type === 'prepared-call');
  for (const entry of prepared) if (entry.type === 'tool-error') outcomes.set(entry.callId, entry);
  const toolAt = (index: number): { tool: string } => ({ tool: candidates[index]?.toolName ?? '' });
  const batches = partitionCalls(candidates, {
    maxConcurrency: state.limits.maxToolConcurrency,
    dependsOn: (earlier, later) => dependsOn(state.rules, toolAt(earlier), toolAt(later)),
  });
  let taken = 0;
  const settle = (): SettledCalls => {
    const settled: DispatchedCall[] = [];
    for (; taken < prepared.length; taken++) {
      const entry = prepared[taken] as PreparedCall | ToolErrorOutcome;
      const outcome = outcomes.get(entry.callId);
      if (outcome === undefined) break;
      const message = messages.get(entry.callId);
      settled.push({ outcome, ...(message ? { message } : {}) });
    }
    return { settled, remaining: prepared.slice(taken) };
  };
  const refuseAll = (calls: readonly PreparedCall[]): void => {
    for (const call of calls) {
      const message = 'Not run: the user interrupted the session.';
      outcomes.set(call.callId, refusePreparedCall(call, { reason: 'interrupted', message }));
    }
  };

  for (const [index, batch] of batches.entries()) {
    if (state.interrupt) {
      refuseAll(batch.calls);
      continue;
    }
    if (index > 0) await betweenBatches(settle);
    const cleared = judgeCalls(state, batch.calls, outcomes);
    const runnable = await approveWhereNeeded(state, cleared, outcomes);
    // An interrupt that arrived while this batch waited for approvals stops the calls that did not start.
    if (state.interrupt) {
      refuseAll(runnable.map(({ prepared: call }) => call));
      continue;
    }
    if (runnable.length === 0) continue;
    setStatus(state, 'running_tools');
    const executed = await traceBatch(index, batch.calls.length, runnable.length, () => runBatch(state, runnable));
    runnable.forEach(({ prepared: call }, index) => {
      const result = executed[index];
      if (result === undefined) return;
      outcomes.set(call.callId, result.outcome);
      if (result.message) messages.set(call.callId, result.message);
      recordCall(state, call, result.outcome);
    });
  }
  // Every call has its outcome by now; should one not, it fails closed instead of leaving the model without a result.
  const missing = candidates.filter((call) => !outcomes.has(call.callId));
  for (const call of missing)
    outcomes.set(call.callId, refusePreparedCall(call, { reason: 'interrupted', message: 'The call did not run.' }));
  return settle().settled;
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
    traceVerdict(call, verdict);
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
    const needsApprovalBecause = approvalReason(call, verdict.requiresApproval);
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
async function runBatch(state: SessionState, calls: readonly RunnableCall[]): Promise<DispatchedCall[]> {
  const batchScope = new CancellationScope();
  let failedFirst: { callId: string; toolName: string } | undefined;
  const abortSiblings = (prepared: PreparedCall): void => {
    if (state.limits.siblingAbort !== 'on-error' || failedFirst !== undefined || calls.length < 2) return;
    failedFirst = { callId: prepared.callId, toolName: prepared.toolName };
    batchScope.cancel();
  };
  const runOne = async ({ prepared, approved }: RunnableCall): Promise<DispatchedCall> => {
    const running = { prepared, scope: new CancellationScope(), interrupted: false };
    state.running.set(prepared.callId, running);
    const { sessionId, turnIndex: turn, interactive } = state;
    try {
      const rulesReadOutput = readsOutput(state.rules, prepared.toolName);
      const store = state.store === undefined ? {} : { store: state.store };
      const input = { sessionId, ...store, turn, interactive, prepared, approved, rulesReadOutput };
      // A store failure of the tool activity means the call did not run: it runs once the store is back.
      const run = (): Promise<DispatchedCall> => withStore(state, () => executeToolActivity(prepared)(input));
      const executed = await running.scope.run(() => traceToolCall(prepared, approved, run));
      if (executed.outcome.type === 'tool-error') abortSiblings(prepared);
      return executed;
    } catch (error) {
      const byInterrupt = running.interrupted;
      const bySibling = !byInterrupt && failedFirst !== undefined && failedFirst.callId !== prepared.callId;
      const cancelledBy = byInterrupt ? 'interrupt' : bySibling ? failedFirst : undefined;
      const settled = await settleFailedCall(state, turn, prepared, error, cancelledBy);
      if (!byInterrupt && !bySibling && settled.outcome.type === 'tool-error') abortSiblings(prepared);
      return settled;
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
