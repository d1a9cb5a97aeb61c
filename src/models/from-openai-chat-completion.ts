import type { ChatCompletion, ChatCompletionMessageToolCall } from 'openai/resources/chat/completions';
import type { ProposedToolCall } from './conversation-message';
import { ModelError } from './model-error';
import { ModelErrorCode } from './model-error-code';
import type { ModelResponse, ModelStopReason } from './model-response';
import { parseToolCallArguments } from './parse-tool-call-arguments';
import { withUniqueToolCallIds } from './with-unique-tool-call-ids';

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
