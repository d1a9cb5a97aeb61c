import { createToolErrorOutcome, ToolErrorCode } from '../../dispatch';
import type { PreparedCall, ToolOutcome } from '../../dispatch';
import { describeError } from '../describe-error';
import { ToolExecutionError } from '../errors/tool-execution-error';
import { abortOutcome } from './abort-outcome';
import type { ToolExecutionEnd } from './after-abort';
import { toJsonValue } from './to-json-value';

/**
 * The outcome of a call that was started: its whole result (the tool activity offloads a long one
 * to the content store), or its failure with a code that says why and whether another attempt may
 * help (only when the call may be retried; a deliberate `ToolExecutionError` only when it says so).
 */
export function executionOutcome({ end, prepared }: { end: ToolExecutionEnd; prepared: PreparedCall }): ToolOutcome {
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
  return { type: 'tool-result', callId, toolName, output };
}
