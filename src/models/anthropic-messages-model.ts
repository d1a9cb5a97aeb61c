import Anthropic from '@anthropic-ai/sdk';
import { abortedModelError } from './aborted-model-error';
import { anthropicErrorToModelError } from './anthropic-error-to-model-error';
import { fromAnthropicMessage } from './from-anthropic-message';
import type { ModelAdapter } from './model-adapter';
import { toAnthropicMessagesRequest, type AnthropicMessagesRequestOptions } from './to-anthropic-messages-request';

/** Options of {@link createAnthropicMessagesModel}. */
export interface AnthropicMessagesModelOptions extends AnthropicMessagesRequestOptions {
  /** The API key. */
  apiKey: string;
  /** Base URL of the API (without `/v1`). Defaults to Anthropic's. */
  baseUrl?: string;
  /** Retries inside the client. Defaults to 0: Temporal retries the activity, visibly. */
  maxRetries?: number;
  /**
   * Per-request timeout, in milliseconds. Defaults to 600_000. Always sent, which also stops the
   * client from refusing non-streaming calls with a large `max_tokens`.
   */
  timeoutMs?: number;
  /** Name reported as `provider` and in error messages. Defaults to `anthropic`. */
  provider?: string;
}

/**
 * A {@link ModelAdapter} for the Anthropic Messages API (`POST /v1/messages`), built on the official
 * `@anthropic-ai/sdk` client. The call's abort signal is handed to the client, so aborting closes
 * the HTTP request.
 */
export function createAnthropicMessagesModel(options: AnthropicMessagesModelOptions): ModelAdapter {
  const { apiKey, baseUrl, maxRetries = 0, timeoutMs = 600_000, provider = 'anthropic', ...requestOptions } = options;
  const client = new Anthropic({
    apiKey,
    maxRetries,
    timeout: timeoutMs,
    ...(baseUrl !== undefined && { baseURL: baseUrl }),
  });
  return {
    provider,
    async complete(request, { signal }) {
      if (signal.aborted) throw abortedModelError(provider, signal);
      try {
        const body = toAnthropicMessagesRequest(request, { ...requestOptions, provider });
        const message = await client.messages.create(body, { signal });
        return fromAnthropicMessage(message, request.turn);
      } catch (error) {
        throw anthropicErrorToModelError(error, provider, signal);
      }
    },
  };
}
