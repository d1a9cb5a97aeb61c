import type { JsonValue } from './json-value';
import type { ToolErrorCode } from './tool-error-code';
import type { ToolIssue } from './tool-issue';

/** A tool call that ran and returned. */
export interface ToolResultOutcome {
  readonly type: 'tool-result';
  readonly callId: string;
  /** The resolved tool name (never an alias). */
  readonly toolName: string;
  /** The tool's return value as JSON; the preview text when the result was offloaded or truncated. */
  readonly output: JsonValue;
  /**
   * The content-store key of the whole output, when it was offloaded (longer than the tool's
   * `maxResultSizeChars`, or than the worker's `resultOffloadBytes`): it is in the session's content store.
   */
  readonly offloadedTo?: string;
  /** Length of the full output, in characters; set only when `output` is a preview. */
  readonly fullSizeChars?: number;
  /**
   * Why the whole output could not be stored (the content store was unavailable for the rest of the
   * call's time): `output` is then a preview, and the call did take effect.
   */
  readonly storeError?: string;
}

/** A tool call that ended without a result; every failing phase produces one. */
export interface ToolErrorOutcome {
  readonly type: 'tool-error';
  readonly callId: string;
  /** The resolved tool name, or the requested name when it did not resolve. */
  readonly toolName: string;
  readonly code: ToolErrorCode;
  /** Written for the model: what went wrong and what to do next. */
  readonly message: string;
  /** Schema problems, for `INPUT_VALIDATION_ERROR` and `HOOK_INPUT_INVALID`. */
  readonly issues?: readonly ToolIssue[];
  /** Whether running the call again may succeed (execution failures of retryable calls only). */
  readonly retryable?: boolean;
}

/** The one outcome every proposed tool call gets. Plain JSON. */
export type ToolOutcome = ToolResultOutcome | ToolErrorOutcome;
