import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, OpenAIError } from 'openai';
import { abortedModelError } from './aborted-model-error';
import { ModelError } from './model-error';
import { ModelErrorCode } from './model-error-code';
import { modelErrorFromHttpResponse } from './model-error-from-http-response';

/**
 * Maps whatever the `openai` client threw to a {@link ModelError}. An aborted `signal` always wins
 * (`ABORTED`); errors that are neither the client's nor a response-parsing failure are rethrown as is.
 */
export function openAIErrorToModelError(error: unknown, provider: string, signal: AbortSignal): ModelError {
  if (ModelError.isInstance(error)) return error;
  if (signal.aborted || error instanceof APIUserAbortError) return abortedModelError(provider, signal, error);
  if (error instanceof APIConnectionTimeoutError) {
    return new ModelError({ code: ModelErrorCode.TIMEOUT, message: error.message, provider, cause: error });
  }
  if (error instanceof APIConnectionError) {
    return new ModelError({ code: ModelErrorCode.CONNECTION, message: error.message, provider, cause: error });
  }
  if (error instanceof APIError) {
    const { status, headers } = error as APIError<number | undefined, Headers | undefined>;
    if (status !== undefined) {
      return modelErrorFromHttpResponse({ provider, status, headers, message: error.message, cause: error });
    }
  }
  if (error instanceof OpenAIError) {
    return new ModelError({ code: ModelErrorCode.CONFIGURATION, message: error.message, provider, cause: error });
  }
  if (error instanceof SyntaxError) {
    return new ModelError({ code: ModelErrorCode.INVALID_RESPONSE, message: error.message, provider, cause: error });
  }
  throw error;
}
