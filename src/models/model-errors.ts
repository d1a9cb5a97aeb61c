import { AISDKError, APICallError } from '@ai-sdk/provider';
import { ModelError } from './model-error';
import { ModelErrorCode } from './model-error-code';

/** Read-only view of response headers (the Fetch `Headers` class fits). */
export interface HeaderReader {
  get(name: string): string | null;
}

/** Options of {@link modelErrorFromHttpResponse}. */
export interface HttpErrorResponse {
  provider: string;
  status: number;
  headers: HeaderReader | undefined;
  message: string;
  cause?: unknown;
}

/**
 * Maps an HTTP error response to a {@link ModelError}: the code from the status, `retryAfterMs`
 * from `retry-after-ms` / `retry-after`, and `retryable` from the code unless the server sent
 * `x-should-retry: true|false`.
 */
export function modelErrorFromHttpResponse({
  provider,
  status,
  headers,
  message,
  cause,
}: HttpErrorResponse): ModelError {
  const code = codeForStatus(status);
  const shouldRetry = headers?.get('x-should-retry');
  const retryAfterMs = parseRetryAfter(headers);
  return new ModelError({
    code,
    message,
    provider,
    status,
    cause,
    ...(shouldRetry === 'true' ? { retryable: true } : shouldRetry === 'false' ? { retryable: false } : {}),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

function codeForStatus(status: number): ModelErrorCode {
  switch (status) {
    case 401:
      return ModelErrorCode.AUTHENTICATION;
    case 402:
    case 403:
      return ModelErrorCode.PERMISSION_DENIED;
    case 404:
      return ModelErrorCode.NOT_FOUND;
    case 408:
      return ModelErrorCode.TIMEOUT;
    case 409:
      return ModelErrorCode.SERVER_ERROR;
    case 429:
      return ModelErrorCode.RATE_LIMITED;
    default:
      return status >= 500 ? ModelErrorCode.SERVER_ERROR : ModelErrorCode.BAD_REQUEST;
  }
}

/**
 * How long the server asked the client to wait, in milliseconds, from `retry-after-ms`
 * (milliseconds), else `retry-after` (seconds or an HTTP date). `undefined` when neither is
 * present or parsable. `now` is the current time in epoch milliseconds (defaults to `Date.now()`).
 */
export function parseRetryAfter(headers: HeaderReader | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const milliseconds = parseNonNegativeNumber(headers.get('retry-after-ms'));
  if (milliseconds !== undefined) return Math.ceil(milliseconds);
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^[+-]?\d/.test(value)) {
    const seconds = parseNonNegativeNumber(value);
    return seconds === undefined ? undefined : Math.ceil(seconds * 1000);
  }
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

function parseNonNegativeNumber(value: string | null): number | undefined {
  if (value === null || !/^\s*\d+(\.\d+)?\s*$/.test(value)) return undefined;
  return Number(value);
}

/** The `ABORTED` error of a call whose signal fired; its `cause` is the signal's reason (else `cause`). */
export function abortedModelError(provider: string, signal: AbortSignal, cause?: unknown): ModelError {
  const reason: unknown = signal.aborted ? signal.reason : undefined;
  return new ModelError({
    code: ModelErrorCode.ABORTED,
    message: `the model call was aborted${reason instanceof Error && reason.message ? ` (${reason.message})` : ''}`,
    provider,
    cause: reason ?? cause,
  });
}

/** Options of {@link toModelError}. */
export interface ToModelErrorOptions {
  /** The provider name reported in the error (`openai.chat`, `anthropic.messages`, …). */
  readonly provider: string;
  /** The call's abort signal: once it fired, any failure is `ABORTED`. */
  readonly signal: AbortSignal;
}

/** AI SDK errors that mean the provider answered with something that is not a usable response. */
const invalidResponseErrors = [
  'AI_InvalidResponseDataError',
  'AI_JSONParseError',
  'AI_TypeValidationError',
  'AI_EmptyResponseBodyError',
  'AI_NoContentGeneratedError',
];

/**
 * Maps whatever a model call threw to a {@link ModelError}. An aborted `signal` always wins
 * (`ABORTED`); a request timeout is `TIMEOUT`; an AI SDK `APICallError` without a status is
 * `CONNECTION`, with a 2xx status `INVALID_RESPONSE`, and otherwise goes through
 * {@link modelErrorFromHttpResponse} with a message that says what the server said (or that it said
 * nothing); a response the provider could not read is `INVALID_RESPONSE`; any other AI SDK error
 * (a missing key, an unsupported setting, an unknown model) is `CONFIGURATION`. Other errors (a
 * custom model's own) are returned unchanged for the caller to rethrow.
 */
export function toModelError(error: unknown, { provider, signal }: ToModelErrorOptions): unknown {
  if (ModelError.isInstance(error)) return error;
  if (signal.aborted) return abortedModelError(provider, signal, error);
  const failure = (code: ModelErrorCode, message: string, extra: { retryable?: boolean } = {}): ModelError =>
    new ModelError({ code, message, provider, cause: error, ...extra });
  if (error instanceof Error && error.name === 'TimeoutError') {
    return failure(ModelErrorCode.TIMEOUT, `the request timed out (${error.message})`);
  }
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    if (status === undefined) return failure(ModelErrorCode.CONNECTION, error.message, { retryable: true });
    if (status >= 200 && status < 300) {
      return failure(ModelErrorCode.INVALID_RESPONSE, `the response could not be read: ${error.message}`);
    }
    return modelErrorFromHttpResponse({
      provider,
      status,
      headers: headerReader(error.responseHeaders),
      message: describeHttpError(error, status),
      cause: error,
    });
  }
  if (AISDKError.isInstance(error)) {
    return invalidResponseErrors.includes(error.name)
      ? failure(ModelErrorCode.INVALID_RESPONSE, `the response could not be read: ${error.message}`)
      : failure(ModelErrorCode.CONFIGURATION, error.message);
  }
  return error;
}

/** Case-insensitive reads of the plain header record the AI SDK keeps. */
function headerReader(headers: Record<string, string> | undefined): HeaderReader | undefined {
  if (headers === undefined) return undefined;
  const lower = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  return { get: (name) => lower.get(name.toLowerCase()) ?? null };
}

/** Words in an error message that say the conversation did not fit the model's context. */
const contextOverflow =
  /context[ _-]?(length|window)|maximum context|prompt is too long|input is too long|too many (input )?tokens|exceeds? the (model'?s? )?(context|maximum)/i;

/** How to make the request fit. */
const contextHint =
  "the conversation may be longer than the model's context window: lower the model setting contextBudgetBytes";

/**
 * What the user reads about an HTTP error: the status and the server's own message and error type,
 * or, when the body said nothing, that it said nothing (and, for a 400, the likeliest cause).
 */
function describeHttpError(error: APICallError, status: number): string {
  const body = error.responseBody?.trim() ?? '';
  const { type, code } = errorFields(error.data);
  if (body === '' || error.data === undefined) {
    const said =
      body === '' ? 'without a response body' : `with a body that is not an error object: ${body.slice(0, 200)}`;
    const hint = status === 400 || status === 413 ? `; ${contextHint}` : '';
    return `HTTP ${status} ${error.message || ''}`.trimEnd() + ` ${said}: the server gave no reason${hint}`;
  }
  const label = [type, code].filter((part, index, all) => part && all.indexOf(part) === index).join('/');
  const hint = contextOverflow.test(error.message) || code === 'context_length_exceeded' ? ` (${contextHint})` : '';
  return `HTTP ${status}${label ? ` ${label}` : ''}: ${error.message}${hint}`;
}

/** `error.type` and `error.code` of a parsed error body (OpenAI's and Anthropic's shapes). */
function errorFields(data: unknown): { type?: string; code?: string } {
  if (typeof data !== 'object' || data === null) return {};
  const inner = (data as { error?: unknown }).error;
  if (typeof inner !== 'object' || inner === null) return {};
  const { type, code } = inner as { type?: unknown; code?: unknown };
  return {
    ...(typeof type === 'string' ? { type } : {}),
    ...(typeof code === 'string' ? { code } : {}),
  };
}
