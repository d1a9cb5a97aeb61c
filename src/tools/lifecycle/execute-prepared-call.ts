import { createToolErrorOutcome, ToolErrorCode } from '../../dispatch';
import type { JsonObject } from '../../dispatch';
import type { PreparedCall, ToolOutcome } from '../../dispatch';
import { describeError } from '../describe-error';
import type { AnyTool } from '../tool';
import type { ToolCallContext, ToolExecutionContext } from '../tool-context';
import type { ToolRegistry } from '../tool-registry';
import { abortOutcome } from './abort-outcome';
import type { AfterAbort } from './after-abort';
import { executionOutcome } from './execution-outcome';
import { parseToolArgs } from './parse-tool-args';
import { revalidateRewrittenArgs } from './revalidate-rewritten-args';
import { runPostToolHooks } from './run-post-tool-hooks';
import { runPreToolHooks } from './run-pre-tool-hooks';
import { runToolExecution } from './run-tool-execution';
import type { ToolHooks } from './tool-hooks';
import type { ToolSessionContext } from './tool-session-context';

/** Options of {@link executePreparedCall}. */
export interface ExecutePreparedCallOptions {
  readonly registry: ToolRegistry;
  readonly prepared: PreparedCall;
  readonly context: ToolSessionContext;
  /** Default: none. */
  readonly hooks?: ToolHooks;
  /** Whether a human approved this call; required when its permission is `ask`. Default: false. */
  readonly approved?: boolean;
  /** What to do with a tool that does not settle soon after its signal fired. Default: nothing (it is not awaited). */
  readonly afterAbort?: AfterAbort;
}

/**
 * The second half of the lifecycle, after the workflow has the approvals it needs: pre-tool hooks
 * (which may block, or rewrite the arguments, which are then validated again), execute (with the
 * abort signal and the time limit), post-tool hooks. Always resolves to exactly one outcome, with the
 * whole output (the tool activity offloads a long one to the content store); never throws.
 */
export async function executePreparedCall(options: ExecutePreparedCallOptions): Promise<ToolOutcome> {
  try {
    return await executeOrRefuse(options);
  } catch (error) {
    return createToolErrorOutcome({
      callId: options.prepared.callId,
      toolName: options.prepared.toolName,
      code: ToolErrorCode.EXECUTION_ERROR,
      message: `The call failed inside the runtime: ${describeError(error)}`,
      retryable: false,
    });
  }
}

async function executeOrRefuse({
  registry,
  prepared,
  context,
  hooks = {},
  approved = false,
  afterAbort,
}: ExecutePreparedCallOptions): Promise<ToolOutcome> {
  const { callId, toolName } = prepared;
  const fail = (code: ToolErrorCode, message: string) => createToolErrorOutcome({ callId, toolName, code, message });
  const signal = context.signal ?? new AbortController().signal;
  if (signal.aborted) return abortOutcome({ callId, toolName, reason: signal.reason, retryAllowed: false });
  if (prepared.permission === 'deny') {
    return fail(
      ToolErrorCode.PERMISSION_DENIED,
      prepared.permissionMessage ?? `Permission to use ${toolName} was denied.`,
    );
  }
  if (prepared.permission === 'ask' && !approved) {
    return fail(
      ToolErrorCode.APPROVAL_REQUIRED,
      `${toolName} needs a human's approval for this call, and none was given.`,
    );
  }
  const tool = registry.get(toolName);
  if (tool === undefined) return fail(ToolErrorCode.UNKNOWN_TOOL, `${toolName} is no longer available.`);

  const callContext: ToolCallContext = {
    sessionId: context.sessionId,
    callId,
    interactive: context.interactive,
    signal,
  };
  const ready = await runHooksAndValidate({ tool, prepared, hooks, callContext });
  if ('outcome' in ready) return ready.outcome;

  const executionContext: ToolExecutionContext = {
    ...callContext,
    idempotencyKey: context.idempotencyKey ?? `${context.sessionId}/${callId}`,
    heartbeat: (details?: unknown) => context.heartbeat?.(details),
  };
  const end = await runToolExecution({
    tool,
    input: ready.input,
    context: executionContext,
    timeoutMs: prepared.execution.timeoutMs,
    afterAbort,
  });
  const outcome = executionOutcome({ end, prepared });
  await runPostToolHooks(hooks, { sessionId: context.sessionId, prepared, args: ready.args, outcome });
  return outcome;
}

async function runHooksAndValidate({
  tool,
  prepared,
  hooks,
  callContext,
}: {
  tool: AnyTool;
  prepared: PreparedCall;
  hooks: ToolHooks;
  callContext: ToolCallContext;
}): Promise<{ args: JsonObject; input: unknown } | { outcome: ToolOutcome }> {
  const { callId, toolName } = prepared;
  const verdict = await runPreToolHooks({ hooks: hooks.preToolUse ?? [], sessionId: callContext.sessionId, prepared });
  if (verdict.action === 'block') {
    return {
      outcome: createToolErrorOutcome({ callId, toolName, code: ToolErrorCode.HOOK_BLOCKED, message: verdict.message }),
    };
  }
  if (verdict.rewritten) {
    const revalidated = await revalidateRewrittenArgs({
      tool,
      prepared,
      rewrittenArgs: verdict.args,
      context: callContext,
    });
    return revalidated.success
      ? { args: revalidated.args, input: revalidated.input }
      : { outcome: revalidated.outcome };
  }
  // The prepared arguments passed this schema already; parsing again rebuilds the typed input.
  const parsed = await parseToolArgs(tool, prepared.args);
  if (!parsed.success) {
    return {
      outcome: createToolErrorOutcome({
        callId,
        toolName,
        code: ToolErrorCode.INPUT_VALIDATION_ERROR,
        message: `The arguments no longer match the input schema of ${toolName} (the tool changed since the call was prepared).`,
        issues: parsed.issues,
      }),
    };
  }
  return { args: parsed.args, input: parsed.input };
}
