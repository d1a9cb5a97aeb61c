import { dependsOn, record, validate } from '../../src/rules';
import { createToolErrorOutcome } from '../../src/dispatch/create-tool-error-outcome';
import { partitionCalls } from '../../src/dispatch/partition-calls';
import type { PreparedCall } from '../../src/dispatch/prepared-call';
import { readRevealedTools } from '../../src/dispatch/read-revealed-tools';
import { refusePreparedCall } from '../../src/dispatch/refuse-prepared-call';
import { ToolErrorCode } from '../../src/dispatch/tool-error-code';
import type { ToolErrorOutcome, ToolOutcome } from '../../src/dispatch/tool-outcome';
import { awaitApprovals } from './await-approvals';
import type { ApprovalRequest, ApprovalResult } from './await-approvals';
import { formatRuleRefusal } from './format-rule-refusal';
import { publishSessionState } from './publish-session-state';
import { runBatch } from './run-batch';
import type { RunnableCall } from './run-batch';
import type { SessionContext } from './session-context';
import { traceBatch, traceVerdict } from '../session-tracing';

/**
 * Runs the calls of one model response and returns exactly one outcome per call, in call order.
 * Calls are judged as if they ran one after another: they are partitioned into batches (safe
 * calls together, unsafe ones alone, split where a rule makes one verdict depend on another call),
 * and each batch is validated against the rule state left by the batches before it, put up for
 * approval where needed, run, and recorded.
 */
export async function dispatchCalls(
  context: SessionContext,
  prepared: readonly (PreparedCall | ToolErrorOutcome)[],
): Promise<ToolOutcome[]> {
  const outcomes = new Map<string, ToolOutcome>();
  const candidates: PreparedCall[] = [];
  for (const entry of prepared) {
    if (entry.type === 'prepared-call') candidates.push(entry);
    else outcomes.set(entry.callId, entry);
  }
  const batches = partitionCalls(candidates, {
    maxConcurrency: context.limits.maxToolConcurrency,
    dependsOn: (earlier, later) =>
      dependsOn(
        context.rules,
        { tool: candidates[earlier]?.toolName ?? '' },
        { tool: candidates[later]?.toolName ?? '' },
      ),
  });

  const notRun = (calls: readonly PreparedCall[]): void => {
    for (const call of calls) {
      outcomes.set(
        call.callId,
        refusePreparedCall(call, { reason: 'interrupted', message: 'Not run: the user interrupted the session.' }),
      );
    }
  };
  for (const [batchIndex, batch] of batches.entries()) {
    if (context.interrupt) {
      notRun(batch.calls);
      continue;
    }
    const cleared = clearBatch(context, batch.calls, outcomes);
    const runnable = await approveWhereNeeded(context, cleared, outcomes);
    // An interrupt that arrived while this batch waited for approvals stops the calls that did not start.
    if (context.interrupt) {
      notRun(runnable.map(({ prepared: call }) => call));
      continue;
    }
    if (runnable.length === 0) continue;
    context.status = 'running_tools';
    publishSessionState(context);
    const batchOutcomes = await traceBatch(batchIndex, batch.calls.length, runnable.length, () =>
      runBatch(context, runnable),
    );
    runnable.forEach(({ prepared: call }, index) => {
      const outcome = batchOutcomes[index];
      if (outcome === undefined) return;
      outcomes.set(call.callId, outcome);
      recordOutcome(context, call, outcome);
    });
  }
  return prepared.map((entry) => outcomes.get(entry.callId) ?? missingOutcome(entry));
}

/** Validates each call of a batch against the rules; refused ones get their outcome now. */
function clearBatch(
  context: SessionContext,
  calls: readonly PreparedCall[],
  outcomes: Map<string, ToolOutcome>,
): { prepared: PreparedCall; needsApprovalBecause: string | undefined }[] {
  const cleared: { prepared: PreparedCall; needsApprovalBecause: string | undefined }[] = [];
  const catalog = context.catalogNames();
  for (const call of calls) {
    const verdict = validate(context.rules, context.ruleState, { tool: call.toolName, args: call.input }, catalog);
    context.note({
      kind: 'verdict',
      callId: call.callId,
      tool: call.toolName,
      verdict: verdict.verdict,
      reasons: verdict.reasons.map(({ code, message, callFirst }) => ({
        code,
        message,
        ...(callFirst ? { callFirst } : {}),
      })),
    });
    traceVerdict(call, verdict);
    if (verdict.verdict === 'blocked') {
      context.counters.blockedCalls += 1;
      outcomes.set(
        call.callId,
        refusePreparedCall(call, {
          reason: 'rule-blocked',
          message: formatRuleRefusal(call.toolName, verdict.reasons),
        }),
      );
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
    if (needsApprovalBecause !== undefined && !context.interactive) {
      outcomes.set(
        call.callId,
        refusePreparedCall(call, {
          reason: 'approval-denied',
          message: `${needsApprovalBecause}, and this session is not interactive: denied.`,
        }),
      );
      continue;
    }
    cleared.push({ prepared: call, needsApprovalBecause });
  }
  return cleared;
}

/** Waits for the human decisions a batch needs; denied, timed-out and interrupted calls get their outcome. */
async function approveWhereNeeded(
  context: SessionContext,
  cleared: { prepared: PreparedCall; needsApprovalBecause: string | undefined }[],
  outcomes: Map<string, ToolOutcome>,
): Promise<RunnableCall[]> {
  const requests: ApprovalRequest[] = cleared.flatMap(({ prepared, needsApprovalBecause }) =>
    needsApprovalBecause === undefined ? [] : [{ prepared, reason: needsApprovalBecause }],
  );
  const results = requests.length > 0 ? await awaitApprovals(context, requests) : new Map<string, ApprovalResult>();
  const runnable: RunnableCall[] = [];
  for (const { prepared, needsApprovalBecause } of cleared) {
    if (needsApprovalBecause === undefined) {
      runnable.push({ prepared, approved: false });
      continue;
    }
    const result = results.get(prepared.callId);
    const decision = result?.decision ?? 'timed_out';
    context.note({
      kind: 'approval',
      callId: prepared.callId,
      tool: prepared.toolName,
      decision,
      ...(result && 'reason' in result && result.reason !== undefined ? { reason: result.reason } : {}),
    });
    if (decision === 'approved') runnable.push({ prepared, approved: true });
    else if (decision === 'timed_out')
      outcomes.set(prepared.callId, refusePreparedCall(prepared, { reason: 'approval-timeout' }));
    else if (decision === 'interrupted')
      outcomes.set(prepared.callId, refusePreparedCall(prepared, { reason: 'interrupted' }));
    else {
      const reason = result && 'reason' in result ? result.reason : undefined;
      outcomes.set(
        prepared.callId,
        refusePreparedCall(prepared, {
          reason: 'approval-denied',
          ...(reason
            ? { message: `A human declined this ${prepared.toolName} call: ${reason}. Do not retry it as is.` }
            : {}),
        }),
      );
    }
  }
  return runnable;
}

/** Records an executed call in the rule state (failures count as attempts but satisfy nothing). */
function recordOutcome(context: SessionContext, call: PreparedCall, outcome: ToolOutcome): void {
  context.ruleState = record(context.rules, context.ruleState, {
    tool: call.toolName,
    args: call.input,
    result: outcome.type === 'tool-result' ? outcome.output : null,
    error: outcome.type === 'tool-error',
  });
  context.counters.toolCalls += 1;
  context.lastTool = call.toolName;
  for (const name of readRevealedTools(outcome)) {
    if (!context.revealedTools.includes(name)) context.revealedTools.push(name);
  }
}

/** Never expected (every call gets an outcome above); kept so a gap still answers the model instead of failing the turn. */
function missingOutcome(entry: PreparedCall | ToolErrorOutcome): ToolOutcome {
  return createToolErrorOutcome({
    callId: entry.callId,
    toolName: entry.toolName,
    code: ToolErrorCode.INTERRUPTED,
    message: 'The call did not run.',
  });
}
