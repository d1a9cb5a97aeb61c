import { CancellationScope } from '@temporalio/workflow';
import type { PreparedCall } from '../src/dispatch';
import type { DispatchedCall } from '../src/session';
import { publishCancelledCalls } from './publish-live';
import { runCall } from './run-call';
import type { Session } from './session';
import { settleFailedCall } from './settle-failed-call';

/** A call that may run, and whether a human approved it. */
export type RunnableCall = { prepared: PreparedCall; approved: boolean };

/**
 * Runs the calls of one batch, all scheduled in one workflow task, in the batch's cancellation
 * scope (none around a call alone), each in a child scope of its own. With `siblingAbort:
 * 'on-error'` the first failing call cancels the rest; an interrupt cancels only `cancel` calls
 * (`interruptRun`). Resolves to one outcome per call, in call order; never rejects.
 */
export function runCalls(session: Session, calls: readonly RunnableCall[]): Promise<DispatchedCall[]> {
  const { state, scopes } = session;
  const batch: { scope?: CancellationScope } = {};
  let failedFirst: { callId: string; toolName: string } | undefined;
  const abortSiblings = (prepared: PreparedCall): void => {
    if (state.limits.siblingAbort !== 'on-error' || failedFirst !== undefined || calls.length < 2) return;
    failedFirst = { callId: prepared.callId, toolName: prepared.toolName };
    batch.scope?.cancel();
    publishCancelledCalls({ callIds: calls.map((call) => call.prepared.callId), model: false });
  };
  const runOne = async ({ prepared, approved }: RunnableCall): Promise<DispatchedCall> => {
    const { callId, toolName, interruptBehavior } = prepared;
    const running = { scope: new CancellationScope(), interrupted: false };
    scopes.calls.set(callId, running);
    session.emit({ type: 'tool_started', callId, tool: toolName, interruptBehavior, approved });
    const turn = state.turnIndex;
    let executed: DispatchedCall;
    try {
      executed = await running.scope.run(() => runCall(session, prepared, approved));
      if (executed.outcome.type === 'tool-error') abortSiblings(prepared);
    } catch (error) {
      const byInterrupt = running.interrupted;
      const bySibling = !byInterrupt && failedFirst !== undefined && failedFirst.callId !== callId;
      const cancelledBy = byInterrupt ? 'interrupt' : bySibling ? failedFirst : undefined;
      executed = await settleFailedCall(session, { turn, prepared, error, cancelledBy });
      if (!byInterrupt && !bySibling && executed.outcome.type === 'tool-error') abortSiblings(prepared);
    } finally {
      scopes.calls.delete(callId);
    }
    session.emit({ type: 'tool_ended', callId, tool: toolName, ...executed });
    return executed;
  };
  // A call alone has no sibling to abort: no batch scope around it, which saves that scope's
  // promises (the SDK records a stack trace for each promise a workflow makes).
  const [alone] = calls;
  if (calls.length === 1 && alone !== undefined) return runOne(alone).then((executed) => [executed]);
  batch.scope = new CancellationScope();
  return batch.scope.run(() => Promise.all(calls.map(runOne)));
}
