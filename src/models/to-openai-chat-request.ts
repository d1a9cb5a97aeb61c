import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionTool } from 'openai/resources/chat/completions';
import { isStrictCompatibleSchema } from './is-strict-compatible-schema';
import type { ModelRequest, ModelToolSpec } from './model-request';
import { toOpenAIChatMessages } from './to-openai-chat-messages';

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
