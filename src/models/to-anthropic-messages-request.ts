import type { MessageCreateParamsNonStreaming, Tool } from '@anthropic-ai/sdk/resources/messages';
import { isStrictCompatibleSchema } from './is-strict-compatible-schema';
import { ModelError } from './model-error';
import { ModelErrorCode } from './model-error-code';
import type { ModelRequest, ModelToolSpec } from './model-request';
import { toAnthropicMessages } from './to-anthropic-messages';

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
