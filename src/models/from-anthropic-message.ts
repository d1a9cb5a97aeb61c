import type { Message, StopReason } from '@anthropic-ai/sdk/resources/messages';
import type { ProposedToolCall } from './conversation-message';
import type { ModelResponse, ModelStopReason } from './model-response';
import { isPlainObject, parseToolCallArguments } from './parse-tool-call-arguments';
import { withUniqueToolCallIds } from './with-unique-tool-call-ids';

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
