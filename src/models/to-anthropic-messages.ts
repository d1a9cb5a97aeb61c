import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { ConversationMessage, ProposedToolCall } from './conversation-message';
import { isPlainObject, parseToolCallArguments } from './parse-tool-call-arguments';

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
