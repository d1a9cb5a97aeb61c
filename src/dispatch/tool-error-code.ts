/**
 * Stable codes of every way a proposed tool call can end without a result. The strings end up in
 * Temporal histories and in what the model reads: never rename one, only add.
 */
export const ToolErrorCode = {
  /** No registered tool (or alias of one) has this name, or it is not in this turn's catalog. */
  UNKNOWN_TOOL: 'UNKNOWN_TOOL',
  /** The tool is deferred and was not revealed by `tool_search` yet. */
  TOOL_NOT_LOADED: 'TOOL_NOT_LOADED',
  /** The arguments are not valid JSON or do not match the input schema (shape and types). */
  INPUT_VALIDATION_ERROR: 'INPUT_VALIDATION_ERROR',
  /** The arguments have the right shape but the tool's `validateInput` refused their values. */
  VALIDATION_ERROR: 'VALIDATION_ERROR',
  /** The tool's permission check (or a non-interactive session facing an `ask`) denied the call. */
  PERMISSION_DENIED: 'PERMISSION_DENIED',
  /** The tool needs a human at the keyboard and the session is not interactive. */
  USER_INTERACTION_REQUIRED: 'USER_INTERACTION_REQUIRED',
  /** The call needs a human approval and none was given to the executor. */
  APPROVAL_REQUIRED: 'APPROVAL_REQUIRED',
  /** A human refused the call. */
  APPROVAL_DENIED: 'APPROVAL_DENIED',
  /** No human decided before the approval deadline. */
  APPROVAL_TIMEOUT: 'APPROVAL_TIMEOUT',
  /** A pre-tool hook blocked the call, or failed (a failing hook blocks). */
  HOOK_BLOCKED: 'HOOK_BLOCKED',
  /** A pre-tool hook rewrote the input into something invalid, or less safe than what was approved. */
  HOOK_INPUT_INVALID: 'HOOK_INPUT_INVALID',
  /** The tool ran and failed (it threw, or returned something that is not JSON). */
  EXECUTION_ERROR: 'EXECUTION_ERROR',
  /** A tool-use rule refused the call. */
  RULE_BLOCKED: 'RULE_BLOCKED',
  /** The call was cancelled because another call of its concurrent batch failed. */
  SIBLING_ABORTED: 'SIBLING_ABORTED',
  /** The call was cancelled by the user or the session (not because it failed). */
  INTERRUPTED: 'INTERRUPTED',
  /** The call ran longer than its `timeoutMs`. */
  TIMEOUT: 'TIMEOUT',
  /** The tool cannot run now (its MCP server is down and being reconnected); the message says why. */
  TOOL_UNAVAILABLE: 'TOOL_UNAVAILABLE',
} as const;

/** One of the {@link ToolErrorCode} strings. */
export type ToolErrorCode = (typeof ToolErrorCode)[keyof typeof ToolErrorCode];

const knownCodes: ReadonlySet<string> = new Set(Object.values(ToolErrorCode));

/** Whether `value` is one of the {@link ToolErrorCode} strings. */
export function isToolErrorCode(value: unknown): value is ToolErrorCode {
  return typeof value === 'string' && knownCodes.has(value);
}
