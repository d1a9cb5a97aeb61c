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

type ErrorClass<T> = abstract new (...args: never[]) => T;

/** An HTTP error as both official SDKs (`openai`, `@anthropic-ai/sdk`) shape it. */
export interface SdkApiError extends Error {
  readonly status: number | undefined;
  readonly headers: HeaderReader | undefined;
}

/** The error classes of one official provider SDK; both SDKs share this hierarchy. */
export interface SdkErrorClasses<TApiError extends SdkApiError> {
  /** The SDK's base class: any other error of the client (configuration, misuse). */
  readonly BaseError: ErrorClass<Error>;
  readonly APIUserAbortError: ErrorClass<Error>;
  readonly APIConnectionTimeoutError: ErrorClass<Error>;
  readonly APIConnectionError: ErrorClass<Error>;
  readonly APIError: ErrorClass<TApiError>;
}

/** Options of {@link sdkErrorToModelError}. */
export interface SdkErrorToModelErrorOptions<TApiError extends SdkApiError> {
  readonly provider: string;
  readonly signal: AbortSignal;
  readonly classes: SdkErrorClasses<TApiError>;
  /** The message of an HTTP error; defaults to the SDK's own. */
  readonly describe?: (error: TApiError, status: number) => string;
}

/**
 * Maps whatever an official SDK client threw to a {@link ModelError}. An aborted `signal` always wins
 * (`ABORTED`); a timeout is `TIMEOUT`, a connection failure `CONNECTION`, an HTTP error goes through
 * {@link modelErrorFromHttpResponse}, any other SDK error is `CONFIGURATION` and a response that does
 * not parse `INVALID_RESPONSE`. Errors that are none of these are rethrown as they are.
 */
export function sdkErrorToModelError<TApiError extends SdkApiError>(
  error: unknown,
  { provider, signal, classes, describe = (apiError) => apiError.message }: SdkErrorToModelErrorOptions<TApiError>,
): ModelError {
  if (ModelError.isInstance(error)) return error;
  if (signal.aborted || error instanceof classes.APIUserAbortError) return abortedModelError(provider, signal, error);
  const failure = (code: ModelErrorCode, cause: Error) =>
    new ModelError({ code, message: cause.message, provider, cause });
  if (error instanceof classes.APIConnectionTimeoutError) return failure(ModelErrorCode.TIMEOUT, error);
  if (error instanceof classes.APIConnectionError) return failure(ModelErrorCode.CONNECTION, error);
  if (error instanceof classes.APIError && error.status !== undefined) {
    const { status, headers } = error;
    return modelErrorFromHttpResponse({ provider, status, headers, message: describe(error, status), cause: error });
  }
  if (error instanceof classes.BaseError) return failure(ModelErrorCode.CONFIGURATION, error);
  if (error instanceof SyntaxError) return failure(ModelErrorCode.INVALID_RESPONSE, error);
  throw error;
}
