import Anthropic, {
  AnthropicError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from '@anthropic-ai/sdk';
import type {
  ContentBlockParam,
  Message,
  MessageCreateParamsNonStreaming,
  MessageParam,
  StopReason,
  Tool,
} from '@anthropic-ai/sdk/resources/messages';
import type { ConversationMessage, ProposedToolCall } from './conversation-message';
import { isStrictCompatibleSchema } from './is-strict-compatible-schema';
import type { ModelAdapter } from './model-adapter';
import { ModelError } from './model-error';
import { ModelErrorCode } from './model-error-code';
import { abortedModelError, sdkErrorToModelError, type SdkErrorClasses } from './model-errors';
import type { ModelRequest, ModelToolSpec } from './model-request';
import type { ModelResponse, ModelStopReason } from './model-response';
import { isPlainObject, parseToolCallArguments, withUniqueToolCallIds } from './tool-call-arguments';

/*
 * The Anthropic Messages adapter, its wire mapping in one place: the adapter, the request body, the
 * conversation as alternating messages of blocks, the message back to a model response.
 */

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
        throw sdkErrorToModelError(error, {
          provider,
          signal,
          classes: anthropicErrorClasses,
          describe: describeAnthropicError,
        });
      }
    },
  };
}

type AnthropicApiError = APIError<number | undefined, Headers | undefined>;

/** The `@anthropic-ai/sdk` client's error classes, for the shared SDK error mapping. */
const anthropicErrorClasses: SdkErrorClasses<AnthropicApiError> = {
  BaseError: AnthropicError,
  APIUserAbortError,
  APIConnectionTimeoutError,
  APIConnectionError,
  APIError,
};

/** The body's `error.type` and `error.message` when the API sent them, else the client's message. */
function describeAnthropicError(error: AnthropicApiError, status: number): string {
  return error.apiMessage === null ? error.message : `${status} ${error.type ?? 'error'}: ${error.apiMessage}`;
}

/** How the Anthropic adapter shapes requests. */
export interface AnthropicMessagesRequestOptions {
  /** `max_tokens` when the request sets no `maxOutputTokens` (the API requires one). Defaults to 4096. */
  defaultMaxOutputTokens?: number;
  /**
   * `strict: true` on tools: `'auto'` only on schemas that satisfy strict mode, `true` on every
   * tool, `false` on none. Defaults to `false` (strict tool use is model-dependent).
   */
  strictTools?: boolean | 'auto';
  /** `false` sends `tool_choice: { type: 'auto', disable_parallel_tool_use: true }`; unset leaves the default (on). */
  parallelToolCalls?: boolean;
}

/** Builds the Messages API request body for one model call. */
export function toAnthropicMessagesRequest(
  request: ModelRequest,
  options: AnthropicMessagesRequestOptions & { provider: string },
): MessageCreateParamsNonStreaming {
  const { defaultMaxOutputTokens = 4096, strictTools = false, parallelToolCalls, provider } = options;
  const hasTools = request.tools.length > 0;
  return {
    model: request.model,
    max_tokens: request.maxOutputTokens ?? defaultMaxOutputTokens,
    ...(request.system && { system: request.system }),
    messages: toAnthropicMessages(request.messages),
    ...(hasTools && { tools: request.tools.map((tool) => toAnthropicTool(tool, strictTools, provider)) }),
    ...(hasTools && parallelToolCalls === false && { tool_choice: { type: 'auto', disable_parallel_tool_use: true } }),
    ...(request.temperature !== undefined && { temperature: request.temperature }),
  };
}

function toAnthropicTool(tool: ModelToolSpec, strictTools: boolean | 'auto', provider: string): Tool {
  const { inputSchema } = tool;
  if (inputSchema.type !== 'object') {
    throw new ModelError({
      code: ModelErrorCode.BAD_REQUEST,
      message: `tool "${tool.name}" has an input schema whose root is not an object schema`,
      provider,
    });
  }
  const strict = strictTools === 'auto' ? isStrictCompatibleSchema(inputSchema) : strictTools;
  return {
    name: tool.name,
    description: tool.description,
    input_schema: { ...inputSchema, type: 'object' },
    ...(strict && { strict: true }),
  };
}

/**
 * Maps the conversation to Anthropic messages: assistant tool calls become `tool_use` blocks, tool
 * results `tool_result` blocks (`is_error: true` on errors) in a user message. Consecutive messages
 * of one role are merged (the API wants alternating roles, and all results of one assistant turn in
 * the next user message, before any text); empty text is dropped (the API rejects empty blocks).
 */
export function toAnthropicMessages(messages: ConversationMessage[]): MessageParam[] {
  const merged: { role: 'user' | 'assistant'; blocks: ContentBlockParam[] }[] = [];
  for (const message of messages) {
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const blocks = toBlocks(message);
    if (blocks.length === 0) continue;
    const last = merged.at(-1);
    if (last?.role === role) last.blocks.push(...blocks);
    else merged.push({ role, blocks });
  }
  return merged.map(({ role, blocks }) => ({ role, content: toContent(role, blocks) }));
}

function toBlocks(message: ConversationMessage): ContentBlockParam[] {
  switch (message.role) {
    case 'user':
      return message.text === '' ? [] : [{ type: 'text', text: message.text }];
    case 'assistant':
      return [
        ...(message.text ? [{ type: 'text' as const, text: message.text }] : []),
        ...message.toolCalls.map((call) => ({
          type: 'tool_use' as const,
          id: call.id,
          name: call.name,
          input: toToolInput(call),
        })),
      ];
    case 'tool':
      return [
        {
          type: 'tool_result',
          tool_use_id: message.callId,
          ...(message.content !== '' && { content: message.content }),
          ...(message.isError && { is_error: true }),
        },
      ];
  }
}

/** Tool results first (the API requires it), then the rest in order; a lone text block as a string. */
function toContent(role: 'user' | 'assistant', blocks: ContentBlockParam[]): MessageParam['content'] {
  const ordered =
    role === 'user'
      ? [
          ...blocks.filter((block) => block.type === 'tool_result'),
          ...blocks.filter((block) => block.type !== 'tool_result'),
        ]
      : blocks;
  const [only] = ordered;
  return ordered.length === 1 && only?.type === 'text' ? only.text : ordered;
}

/** `tool_use.input` must be an object: a raw-string argument is parsed again, else sent as `{}`. */
function toToolInput(call: ProposedToolCall): Record<string, unknown> {
  const args = typeof call.args === 'string' ? parseToolCallArguments(call.args) : call.args;
  return isPlainObject(args) ? args : {};
}

/**
 * Maps an Anthropic `message` to a {@link ModelResponse}: text blocks joined, `tool_use` blocks as
 * calls in order, the stop reason mapped, cache reads and writes counted as input tokens. Other
 * block types (thinking, server tools) are not part of the provider-neutral shape and are dropped.
 */
export function fromAnthropicMessage(message: Message, turn: number): ModelResponse {
  const texts: string[] = [];
  const calls: ProposedToolCall[] = [];
  for (const block of message.content) {
    if (block.type === 'text') texts.push(block.text);
    else if (block.type === 'tool_use') calls.push({ id: block.id, name: block.name, args: toArgs(block.input) });
  }
  const toolCalls = withUniqueToolCallIds(calls, turn);
  const text = texts.join('');
  const { usage } = message;
  return {
    ...(text !== '' && { text }),
    toolCalls,
    stopReason: toStopReason(message.stop_reason, toolCalls.length),
    usage: {
      inputTokens: usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0),
      outputTokens: usage.output_tokens,
    },
  };
}

function toArgs(input: unknown): unknown {
  if (isPlainObject(input)) return input;
  if (typeof input === 'string') return parseToolCallArguments(input);
  return JSON.stringify(input ?? {});
}

function toStopReason(stopReason: StopReason | null, toolCallCount: number): ModelStopReason {
  switch (stopReason) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'max_tokens';
    case 'tool_use':
      return 'tool_calls';
    case 'end_turn':
    case 'stop_sequence':
      return toolCallCount > 0 ? 'tool_calls' : 'end';
    default:
      return 'other';
  }
}
