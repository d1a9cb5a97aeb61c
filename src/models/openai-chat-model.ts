import OpenAI, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  OpenAIError,
} from 'openai';
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { ConversationMessage, ProposedToolCall } from './conversation-message';
import { isStrictCompatibleSchema } from './is-strict-compatible-schema';
import type { ModelAdapter } from './model-adapter';
import { ModelError } from './model-error';
import { ModelErrorCode } from './model-error-code';
import { abortedModelError, sdkErrorToModelError, type SdkErrorClasses } from './model-errors';
import type { ModelRequest, ModelToolSpec } from './model-request';
import type { ModelResponse, ModelStopReason } from './model-response';
import { parseToolCallArguments, serializeToolCallArguments, withUniqueToolCallIds } from './tool-call-arguments';

/*
 * The OpenAI-compatible chat completions adapter, its wire mapping in one place: the adapter, the
 * request body, the conversation as chat messages, the completion back to a model response.
 */

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
        throw sdkErrorToModelError(error, { provider, signal, classes: openAIErrorClasses });
      }
    },
  };
}

/** The `openai` client's error classes, for the shared SDK error mapping. */
const openAIErrorClasses: SdkErrorClasses<APIError<number | undefined, Headers | undefined>> = {
  BaseError: OpenAIError,
  APIUserAbortError,
  APIConnectionTimeoutError,
  APIConnectionError,
  APIError,
};

/** How the OpenAI adapter shapes requests. */
export interface OpenAIChatRequestOptions {
  /**
   * `strict` on function tools: `'auto'` sets it only on schemas that satisfy strict mode
   * (see `isStrictCompatibleSchema`), `true` on every tool, `false` on none. Defaults to `'auto'`.
   */
  strictTools?: boolean | 'auto';
  /** Sent as `parallel_tool_calls` when the request has tools; unset leaves the server's default (on). */
  parallelToolCalls?: boolean;
  /**
   * Which body field carries `maxOutputTokens`. Defaults to `max_completion_tokens`; some older
   * OpenAI-compatible servers only know `max_tokens`.
   */
  maxTokensField?: 'max_completion_tokens' | 'max_tokens';
}

/** Builds the chat-completions request body for one model call. */
export function toOpenAIChatRequest(
  request: ModelRequest,
  options: OpenAIChatRequestOptions = {},
): ChatCompletionCreateParamsNonStreaming {
  const { strictTools = 'auto', parallelToolCalls, maxTokensField = 'max_completion_tokens' } = options;
  const hasTools = request.tools.length > 0;
  return {
    model: request.model,
    messages: toOpenAIChatMessages(request.system, request.messages),
    ...(hasTools && { tools: request.tools.map((tool) => toOpenAIChatTool(tool, strictTools)) }),
    ...(hasTools && parallelToolCalls !== undefined && { parallel_tool_calls: parallelToolCalls }),
    ...(request.temperature !== undefined && { temperature: request.temperature }),
    ...(request.maxOutputTokens !== undefined && { [maxTokensField]: request.maxOutputTokens }),
  };
}

function toOpenAIChatTool(tool: ModelToolSpec, strictTools: boolean | 'auto'): ChatCompletionTool {
  const strict = strictTools === 'auto' ? isStrictCompatibleSchema(tool.inputSchema) : strictTools;
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema, strict },
  };
}

/** Prefix of a tool result marked `isError`: chat completions has no error flag on tool messages. */
export const openAIToolErrorPrefix = 'Error: ';

/**
 * Maps the conversation to chat-completions messages: the system prompt first, assistant tool calls
 * as `tool_calls` (arguments as JSON text), each tool result as a `tool` message with its
 * `tool_call_id`; error results start with {@link openAIToolErrorPrefix}.
 */
export function toOpenAIChatMessages(
  system: string | undefined,
  messages: ConversationMessage[],
): ChatCompletionMessageParam[] {
  const wire: ChatCompletionMessageParam[] = system ? [{ role: 'system', content: system }] : [];
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        wire.push({ role: 'user', content: message.text });
        break;
      case 'assistant':
        wire.push({
          role: 'assistant',
          content: message.text ?? (message.toolCalls.length > 0 ? null : ''),
          ...(message.toolCalls.length > 0 && {
            tool_calls: message.toolCalls.map((call) => ({
              id: call.id,
              type: 'function' as const,
              function: { name: call.name, arguments: serializeToolCallArguments(call.args) },
            })),
          }),
        });
        break;
      case 'tool':
        wire.push({
          role: 'tool',
          tool_call_id: message.callId,
          content: message.isError ? `${openAIToolErrorPrefix}${message.content}` : message.content,
        });
        break;
    }
  }
  return wire;
}

/**
 * Maps a `chat.completion` to a {@link ModelResponse}: the first choice's text (or refusal) and
 * tool calls in order, arguments parsed with `parseToolCallArguments`, the finish reason mapped.
 * A completion without choices is an `INVALID_RESPONSE`.
 */
export function fromOpenAIChatCompletion(completion: ChatCompletion, turn: number, provider: string): ModelResponse {
  const choice = completion.choices[0];
  if (!choice) {
    throw new ModelError({
      code: ModelErrorCode.INVALID_RESPONSE,
      message: `completion ${completion.id} has no choices`,
      provider,
    });
  }
  const { message } = choice;
  const toolCalls = withUniqueToolCallIds((message.tool_calls ?? []).map(toProposedToolCall), turn);
  const text = message.content || message.refusal || undefined;
  return {
    ...(text !== undefined && { text }),
    toolCalls,
    stopReason: toStopReason(choice.finish_reason, toolCalls.length, Boolean(message.refusal)),
    ...(completion.usage && {
      usage: { inputTokens: completion.usage.prompt_tokens, outputTokens: completion.usage.completion_tokens },
    }),
  };
}

function toProposedToolCall(call: ChatCompletionMessageToolCall): ProposedToolCall {
  if (call.type === 'custom') return { id: call.id, name: call.custom.name, args: call.custom.input };
  return { id: call.id, name: call.function.name, args: parseToolCallArguments(call.function.arguments) };
}

function toStopReason(
  finishReason: ChatCompletion.Choice['finish_reason'],
  toolCallCount: number,
  refused: boolean,
): ModelStopReason {
  if (finishReason === 'length') return 'max_tokens';
  if (toolCallCount > 0) return 'tool_calls';
  if (refused) return 'other';
  return finishReason === 'stop' ? 'end' : 'other';
}
