import { createToolErrorOutcome, ToolErrorCode } from '../../dispatch';
import type { PreparedCall, ToolOutcome } from '../../dispatch';
import { describeError } from '../describe-error';
import { ToolExecutionError } from '../errors/tool-execution-error';
import { abortOutcome } from './abort-outcome';
import { offloadToolResult, type ToolResultOffloadOptions } from './offload-tool-result';
import type { ToolExecutionEnd } from './after-abort';
import { toJsonValue } from './to-json-value';

/**
 * The outcome of a call that was started: its result (offloaded when too long), or its failure with
 * a code that says why and whether another attempt may help (only when the call may be retried; a
 * deliberate `ToolExecutionError` only when it says so).
 */
export async function executionOutcome({
  end,
  prepared,
  maxResultSizeChars,
  sessionId,
  offload,
}: {
  end: ToolExecutionEnd;
  prepared: PreparedCall;
  maxResultSizeChars: number;
  sessionId: string;
  offload: ToolResultOffloadOptions;
}): Promise<ToolOutcome> {
  const { callId, toolName } = prepared;
  const retryAllowed = prepared.execution.retry.maximumAttempts > 1;
  if (end.kind === 'aborted' && end.stillRunning === true) {
    return createToolErrorOutcome({
      callId,
      toolName,
      code: ToolErrorCode.INTERRUPTED,
      message: `${toolName} did not stop: it was still running when the session moved on and may still apply its effect.`,
      retryable: false,
    });
  }
  if (end.kind === 'aborted') return abortOutcome({ callId, toolName, reason: end.reason, retryAllowed });
  if (end.kind === 'threw') {
    const deliberate = ToolExecutionError.isInstance(end.error);
    return createToolErrorOutcome({
      callId,
      toolName,
      code: ToolErrorCode.EXECUTION_ERROR,
      message: deliberate ? describeError(end.error) : `${toolName} failed: ${describeError(end.error)}`,
      retryable: retryAllowed && (!deliberate || end.error.retryable),
    });
  }
  const output = toJsonValue(end.output);
  if (output === undefined) {
    return createToolErrorOutcome({
      callId,
      toolName,
      code: ToolErrorCode.EXECUTION_ERROR,
      message: `${toolName} returned a value that cannot be represented as JSON.`,
      retryable: false,
    });
  }
  const kept = await offloadToolResult({ output, maxResultSizeChars, sessionId, callId, offload });
  return { type: 'tool-result', callId, toolName, ...kept };
}
