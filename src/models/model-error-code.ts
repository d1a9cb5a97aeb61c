/**
 * Stable codes of every model-call failure. They end up in Temporal histories (as the
 * `ApplicationFailure` type), so a released code never changes.
 */
export const ModelErrorCode = {
  /** HTTP 429. Retryable, after `retryAfterMs` when the server said so. */
  RATE_LIMITED: 'RATE_LIMITED',
  /** HTTP 401: missing or wrong API key. */
  AUTHENTICATION: 'AUTHENTICATION',
  /** HTTP 402 or 403: the key may not use this model or the account cannot pay. */
  PERMISSION_DENIED: 'PERMISSION_DENIED',
  /** HTTP 404: usually an unknown model name or a wrong base URL. */
  NOT_FOUND: 'NOT_FOUND',
  /** Any other HTTP 4xx: the request itself is wrong (schema, size, context length). */
  BAD_REQUEST: 'BAD_REQUEST',
  /** HTTP 408 or the client's own timeout. Retryable. */
  TIMEOUT: 'TIMEOUT',
  /** The server could not be reached or dropped the connection. Retryable. */
  CONNECTION: 'CONNECTION',
  /** HTTP 409 or 5xx (including Anthropic's 529 overloaded). Retryable. */
  SERVER_ERROR: 'SERVER_ERROR',
  /** The server answered 2xx with something that is not a usable completion. Retryable. */
  INVALID_RESPONSE: 'INVALID_RESPONSE',
  /** The call's abort signal fired (interrupt, activity cancellation). */
  ABORTED: 'ABORTED',
  /** A scripted model was asked for a turn its script has no response for. */
  SCRIPT_EXHAUSTED: 'SCRIPT_EXHAUSTED',
  /** The adapter cannot be built or used as configured (missing API key, unknown script, bad settings). */
  CONFIGURATION: 'CONFIGURATION',
} as const;

/** One of {@link ModelErrorCode}'s values. */
export type ModelErrorCode = (typeof ModelErrorCode)[keyof typeof ModelErrorCode];

const retryableCodes: ReadonlySet<ModelErrorCode> = new Set([
  ModelErrorCode.RATE_LIMITED,
  ModelErrorCode.TIMEOUT,
  ModelErrorCode.CONNECTION,
  ModelErrorCode.SERVER_ERROR,
  ModelErrorCode.INVALID_RESPONSE,
]);

/** Whether a failure with this code is worth retrying by default (transient, not the request's fault). */
export function isRetryableModelErrorCode(code: ModelErrorCode): boolean {
  return retryableCodes.has(code);
}
