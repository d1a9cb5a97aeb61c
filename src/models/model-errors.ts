import { ModelError } from './model-error';
import { ModelErrorCode } from './model-error-code';
import { parseRetryAfter, type HeaderReader } from './parse-retry-after';

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
