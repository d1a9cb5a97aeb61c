import {
  AnthropicError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from '@anthropic-ai/sdk';
import { abortedModelError } from './aborted-model-error';
import { ModelError } from './model-error';
import { ModelErrorCode } from './model-error-code';
import { modelErrorFromHttpResponse } from './model-error-from-http-response';

/**
 * Maps whatever the `@anthropic-ai/sdk` client threw to a {@link ModelError}, with the body's
 * `error.type` and `error.message` in the message. An aborted `signal` always wins (`ABORTED`);
 * errors that are neither the client's nor a response-parsing failure are rethrown as is.
 */
export function anthropicErrorToModelError(error: unknown, provider: string, signal: AbortSignal): ModelError {
  if (ModelError.isInstance(error)) return error;
  if (signal.aborted || error instanceof APIUserAbortError) return abortedModelError(provider, signal, error);
  if (error instanceof APIConnectionTimeoutError) {
    return new ModelError({ code: ModelErrorCode.TIMEOUT, message: error.message, provider, cause: error });
  }
  if (error instanceof APIConnectionError) {
    return new ModelError({ code: ModelErrorCode.CONNECTION, message: error.message, provider, cause: error });
  }
  if (error instanceof APIError) {
    const { status, headers, type, apiMessage } = error as APIError<number | undefined, Headers | undefined>;
    if (status !== undefined) {
      const message = apiMessage === null ? error.message : `${status} ${type ?? 'error'}: ${apiMessage}`;
      return modelErrorFromHttpResponse({ provider, status, headers, message, cause: error });
    }
  }
  if (error instanceof AnthropicError) {
    return new ModelError({ code: ModelErrorCode.CONFIGURATION, message: error.message, provider, cause: error });
  }
  if (error instanceof SyntaxError) {
    return new ModelError({ code: ModelErrorCode.INVALID_RESPONSE, message: error.message, provider, cause: error });
  }
  throw error;
}
