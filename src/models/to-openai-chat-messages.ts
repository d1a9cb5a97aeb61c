import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ConversationMessage } from './conversation-message';
import { serializeToolCallArguments } from './serialize-tool-call-arguments';

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
