import OpenAI from 'openai';
import { abortedModelError } from './aborted-model-error';
import { fromOpenAIChatCompletion } from './from-openai-chat-completion';
import type { ModelAdapter } from './model-adapter';
import { openAIErrorToModelError } from './openai-error-to-model-error';
import { toOpenAIChatRequest, type OpenAIChatRequestOptions } from './to-openai-chat-request';

/** Options of {@link createOpenAIChatModel}. */
export interface OpenAIChatModelOptions extends OpenAIChatRequestOptions {
  /** The API key, sent as `Authorization: Bearer`. */
  apiKey: string;
  /** Base URL of any OpenAI-compatible server, up to and including `/v1`. Defaults to OpenAI's. */
  baseUrl?: string;
  /** Retries inside the client. Defaults to 0: Temporal retries the activity, visibly. */
  maxRetries?: number;
  /** Per-request timeout, in milliseconds. Defaults to 600_000 (the client's own default). */
  timeoutMs?: number;
  /** Name reported as `provider` and in error messages. Defaults to `openai`. */
  provider?: string;
}

/**
 * A {@link ModelAdapter} for OpenAI-compatible chat completions (`POST /chat/completions`), built
 * on the official `openai` client. The call's abort signal is handed to the client, so aborting
 * closes the HTTP request.
 */
export function createOpenAIChatModel(options: OpenAIChatModelOptions): ModelAdapter {
  const { apiKey, baseUrl, maxRetries = 0, timeoutMs = 600_000, provider = 'openai', ...requestOptions } = options;
  const client = new OpenAI({
    apiKey,
    maxRetries,
    timeout: timeoutMs,
    ...(baseUrl !== undefined && { baseURL: baseUrl }),
  });
  return {
    provider,
    async complete(request, { signal }) {
      if (signal.aborted) throw abortedModelError(provider, signal);
      const body = toOpenAIChatRequest(request, requestOptions);
      try {
        const completion = await client.chat.completions.create(body, { signal });
        return fromOpenAIChatCompletion(completion, request.turn, provider);
      } catch (error) {
        throw openAIErrorToModelError(error, provider, signal);
      }
    },
  };
}
