import { condition, setHandler } from '@temporalio/workflow';
import { dependsOn, validate } from '../src/rules';
import {
  approvalReason,
  formatRuleRefusal,
  partitionCalls,
  refusePreparedCall,
  refuseUnapprovedCall,
} from '../src/dispatch';
import type { PreparedCall, UnapprovedDecision } from '../src/dispatch';
import { approveToolCallUpdate, checkApproveToolCallInput } from '../src/session';
import type { ApproveToolCallInput, DispatchedCall } from '../src/session';
import { catalogNames } from './narrowed-catalog';
import { refusing } from './refused-update';
import { runCalls } from './run-calls';
import type { RunnableCall } from './run-calls';
import { emitShadowed } from './session';
import type { Session } from './session';
import type { SessionState } from './session-state';
import { workflowNow } from './workflow-now';

/** A call that needed no approval. */
const notApproved = ({ prepared }: { prepared: PreparedCall }): RunnableCall => ({ prepared, approved: false });
/** Each call of a batch gets one outcome here; `ran` marks those the rules record. */
type BatchOutcomes = Map<string, DispatchedCall & { ran: boolean }>;

/**
 * Runs the next batch of the turn in progress. The turn's remaining calls are partitioned (safe
 * calls together, unsafe ones alone, split where a rule makes one verdict depend on another call)
 * and the first batch is judged against the rule state the batches before it left, put up for
 * approval where needed, run in its cancellation scope and recorded: exactly one outcome per call.
 * After an interrupt, every call still to come is refused instead.
 */
export async function runBatch(session: Session): Promise<void> {
  const { state } = session;
  const candidates = (state.turn?.remaining ?? []).filter((call) => call.type === 'prepared-call');
  if (state.interrupt) return cancelCalls(session, candidates);
  const toolAt = (index: number): { tool: string } => ({ tool: candidates[index]?.toolName ?? '' });
  const [batch] = partitionCalls(candidates, {
    maxConcurrency: state.limits.maxToolConcurrency,
    dependsOn: (earlier, later) => dependsOn(state.rules, toolAt(earlier), toolAt(later)),
  });
  if (batch === undefined) return;
  const index = state.turn?.batches ?? 0;
  const outcomes: BatchOutcomes = new Map();
  const cleared = judgeCalls(session, batch.calls, outcomes);
  const asking = cleared.some(({ needsApprovalBecause }) => needsApprovalBecause !== undefined);
  const runnable = asking ? await approveWhereNeeded(session, cleared, outcomes) : cleared.map(notApproved);
  // An interrupt that arrived while this batch waited for approvals stops the calls that did not start.
  if (state.interrupt) return cancelCalls(session, candidates, outcomes);
  if (runnable.length > 0) {
    const callIds = runnable.map(({ prepared }) => prepared.callId);
    session.emit({ type: 'batch_started', index, size: batch.calls.length, callIds });
    const executed = await runCalls(session, runnable);
    for (const dispatched of executed) outcomes.set(dispatched.outcome.callId, { ...dispatched, ran: true });
  }
  // Every call has its outcome by now; should one not, it fails closed instead of leaving the model without a result.
  const notRun = { reason: 'interrupted', message: 'The call did not run.' } as const;
  const ordered = batch.calls.map(
    (call) => outcomes.get(call.callId) ?? { outcome: refusePreparedCall(call, notRun), ran: false },
  );
  session.emit({ type: 'batch_ended', index, outcomes: ordered });
}

/** The user interrupted: calls that did not run are refused (their batch's refusals stand). */
function cancelCalls(session: Session, calls: readonly PreparedCall[], judged?: BatchOutcomes): void {
  const interrupted = { reason: 'interrupted', message: 'Not run: the user interrupted the session.' } as const;
  const outcomes = calls.map((call) => {
    const refused = judged?.get(call.callId)?.outcome;
    return refused?.type === 'tool-error' ? refused : refusePreparedCall(call, interrupted);
  });
  session.emit({ type: 'batch_cancelled', outcomes });
}

/** A call the rules cleared, and why it still needs a human (`undefined`: it does not). */
interface ClearedCall {
  prepared: PreparedCall;
  needsApprovalBecause: string | undefined;
}

/** Validate and permission: refused calls get their outcome now, the rest are cleared (some for a human to decide). */
function judgeCalls(session: Session, calls: readonly PreparedCall[], outcomes: BatchOutcomes): ClearedCall[] {
  const { state } = session;
  const cleared: ClearedCall[] = [];
  const catalog = catalogNames(state);
  const refuse = (call: PreparedCall, refusal: Parameters<typeof refusePreparedCall>[1]): void => {
    outcomes.set(call.callId, { outcome: refusePreparedCall(call, refusal), ran: false });
  };
  for (const call of calls) {
    const verdict = validate(state.rules, state.ruleState, { tool: call.toolName, args: call.input }, catalog);
    const reasons = verdict.reasons.map(({ code, message, callFirst }) => ({
      code,
      message,
      ...(callFirst && { callFirst }),
    }));
    session.emit({ type: 'verdict', callId: call.callId, tool: call.toolName, verdict: verdict.verdict, reasons });
    emitShadowed(session, { call: { callId: call.callId, tool: call.toolName }, verdict });
    if (verdict.verdict === 'blocked') {
      refuse(call, { reason: 'rule-blocked', message: formatRuleRefusal(call.toolName, verdict.reasons) });
      continue;
    }
    if (call.permission === 'deny') {
      refuse(call, { reason: 'permission-denied' });
      continue;
    }
    const needsApprovalBecause = approvalReason(call, verdict.requiresApproval);
    if (needsApprovalBecause !== undefined && !state.interactive) {
      refuse(call, {
        reason: 'approval-denied',
        message: `${needsApprovalBecause}, and this session is not interactive: denied.`,
      });
      continue;
    }
    cleared.push({ prepared: call, needsApprovalBecause });
  }
  return cleared;
}

/**
 * Puts the calls that need a human up for approval (the `approveToolCall` update decides them, see
 * {@link installApprovals}) and waits until each is decided, the approval timeout passes (undecided
 * ones are denied) or the user interrupts. Returns the calls that may run; the others get their outcome.
 */
async function approveWhereNeeded(
  session: Session,
  cleared: readonly ClearedCall[],
  outcomes: BatchOutcomes,
): Promise<RunnableCall[]> {
  const { state } = session;
  const asking = cleared.filter(({ needsApprovalBecause }) => needsApprovalBecause !== undefined);
  const closed = new Map<string, Decided>();
  const deadline = workflowNow() + state.limits.approvalTimeoutMs;
  const approvals = asking.map(({ prepared: { callId, toolName, input, destructive }, needsApprovalBecause }) => ({
    callId,
    toolName,
    input,
    reason: needsApprovalBecause ?? '',
    destructive,
    deadline,
  }));
  session.emit({ type: 'approvals_requested', approvals });
  const allDecided = (): boolean => asking.every(({ prepared }) => state.decisions.has(prepared.callId));
  await condition(() => allDecided() || state.interrupt !== undefined, state.limits.approvalTimeoutMs);
  const decisions = asking.map(({ prepared: { callId, toolName } }) => {
    const decided = closeDecision(state, callId);
    closed.set(callId, decided);
    return { callId, tool: toolName, ...decided };
  });
  session.emit({ type: 'approvals_closed', decisions });
  return cleared.flatMap(({ prepared, needsApprovalBecause }): RunnableCall[] => {
    if (needsApprovalBecause === undefined) return [notApproved({ prepared })];
    const decided = closed.get(prepared.callId) ?? { decision: 'timed_out' };
    if (decided.decision === 'approved') return [{ prepared, approved: true }];
    outcomes.set(prepared.callId, { outcome: refuseUnapprovedCall(prepared, decided), ran: false });
    return [];
  });
}

/** How the approval of one call ended. */
type Decided = { decision: 'approved'; reason?: string } | UnapprovedDecision;

/** How the approval of one call ended; an undecided call counts as denied. */
function closeDecision(state: SessionState, callId: string): Decided {
  const decision = state.decisions.get(callId);
  if (decision === undefined) return { decision: state.interrupt ? 'interrupted' : 'timed_out' };
  const reason = decision.reason === undefined ? {} : { reason: decision.reason };
  return { decision: decision.approved ? 'approved' : 'denied', ...reason };
}

/**
 * Approvals arrive here: the `approveToolCall` update. Its validator rejects (before anything is
 * written to history) unknown, decided or malformed calls.
 */
export function installApprovals(session: Session): void {
  setHandler(
    approveToolCallUpdate,
    ({ callId, approved, reason }) => {
      session.emit({ type: 'approval_decided', callId, approved, ...(reason === undefined ? {} : { reason }) });
      return { callId, decision: approved ? 'approved' : 'denied' };
    },
    {
      validator: refusing('approveToolCall', (input: ApproveToolCallInput) => validateApproval(session.state, input)),
      description: 'Approves or denies a tool call that waits for a human: { callId, approved, reason? }.',
    },
  );
}

function validateApproval(state: SessionState, input: unknown): void {
  const { callId } = checkApproveToolCallInput(input);
  if (state.decisions.has(callId)) throw new Error(`call ${callId} was already decided`);
  if (!state.pendingApprovals.has(callId)) {
    const known = [...state.pendingApprovals.keys()];
    throw new Error(
      `no call ${callId} waits for approval${known.length ? `; waiting: ${known.join(', ')}` : ' (none waits now)'}`,
    );
  }
}
