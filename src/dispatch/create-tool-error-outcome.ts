import type { ToolErrorCode } from './tool-error-code';
import type { ToolIssue } from './tool-issue';
import type { ToolErrorOutcome } from './tool-outcome';

/** Longest error message kept in an outcome, in characters; longer ones are cut with a marker. */
export const MAX_TOOL_ERROR_MESSAGE_CHARS = 4_000;

/** Options of {@link createToolErrorOutcome}. */
export interface CreateToolErrorOutcomeOptions {
  readonly callId: string;
  readonly toolName: string;
  readonly code: ToolErrorCode;
  readonly message: string;
  readonly issues?: readonly ToolIssue[] | undefined;
  readonly retryable?: boolean | undefined;
}

/** Builds a `tool-error` outcome, bounding the message so one failure cannot flood the context. */
export function createToolErrorOutcome({
  callId,
  toolName,
  code,
  message,
  issues,
  retryable,
}: CreateToolErrorOutcomeOptions): ToolErrorOutcome {
  const bounded =
    message.length > MAX_TOOL_ERROR_MESSAGE_CHARS
      ? `${message.slice(0, MAX_TOOL_ERROR_MESSAGE_CHARS)}… [${message.length - MAX_TOOL_ERROR_MESSAGE_CHARS} more characters]`
      : message;
  return {
    type: 'tool-error',
    callId,
    toolName,
    code,
    message: bounded,
    ...(issues !== undefined && issues.length > 0 ? { issues: issues.map(copyIssue) } : {}),
    ...(retryable === undefined ? {} : { retryable }),
  };
}

function copyIssue(issue: ToolIssue): ToolIssue {
  return { code: issue.code, path: [...issue.path], message: issue.message };
}
