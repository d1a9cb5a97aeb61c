import { CancellationScope } from '@temporalio/workflow';
import type { PreparedCall } from '../../src/dispatch/prepared-call';
import type { ToolOutcome } from '../../src/dispatch/tool-outcome';
import { executeToolActivity } from './execute-tool-activity';
import { outcomeFromFailure } from './outcome-from-failure';
import type { CancelCause } from './outcome-from-failure';
import type { SessionContext } from './session-context';
import { traceToolCall } from '../session-tracing';

/** A call cleared to run, and whether a human approved it. */
export interface RunnableCall {
  prepared: PreparedCall;
  approved: boolean;
}

/**
 * Runs one batch: every call's activity is scheduled at once (in the same workflow task) inside one
 * cancellation scope, each in a child scope of its own. With `siblingAbort: 'on-error'` the first
 * failing call cancels the rest of the batch; an interrupt cancels only `cancel` calls. Resolves to
 * one outcome per call, in call order; never rejects for a tool's failure.
 */
export async function runBatch(context: SessionContext, calls: readonly RunnableCall[]): Promise<ToolOutcome[]> {
  const batchScope = new CancellationScope();
  let failedFirst: { callId: string; toolName: string } | undefined;
  const abortSiblings = (prepared: PreparedCall): void => {
    if (context.limits.siblingAbort !== 'on-error' || failedFirst !== undefined || calls.length < 2) return;
    failedFirst = { callId: prepared.callId, toolName: prepared.toolName };
    batchScope.cancel();
  };
  const runOne = async ({ prepared, approved }: RunnableCall): Promise<ToolOutcome> => {
    const callScope = new CancellationScope();
    const entry = { prepared, scope: callScope, interrupted: false };
    context.running.set(prepared.callId, entry);
    try {
      const outcome = await callScope.run(() =>
        traceToolCall(prepared, approved, () =>
          executeToolActivity({
            sessionId: context.sessionId,
            turn: context.turnIndex,
            interactive: context.interactive,
            prepared,
            approved,
          }),
        ),
      );
      if (outcome.type === 'tool-error') abortSiblings(prepared);
      return outcome;
    } catch (error) {
      const cause: CancelCause = entry.interrupted
        ? { kind: 'interrupt' }
        : failedFirst !== undefined && failedFirst.callId !== prepared.callId
          ? { kind: 'sibling', ...failedFirst }
          : undefined;
      const outcome = outcomeFromFailure(prepared, error, cause);
      if (cause === undefined) abortSiblings(prepared);
      return outcome;
    } finally {
      context.running.delete(prepared.callId);
    }
  };
  // `run` only sets the scope and awaits: every `runOne` settles to an outcome, so this resolves.
  return batchScope.run(() => Promise.all(calls.map(runOne)));
}
