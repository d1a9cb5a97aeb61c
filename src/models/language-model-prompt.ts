import type {
  LanguageModelV4Message,
  LanguageModelV4Prompt,
  LanguageModelV4ToolResultOutput,
  SharedV4ProviderOptions,
} from '@ai-sdk/provider';
import type { AssistantMessage, ConversationMessage, ReasoningBlock, ToolResultMessage } from './conversation-message';
import type { ProviderMetadata } from './provider-metadata';
import { parseToolCallArguments, toolCallInput } from './tool-call-arguments';

/*
 * The conversation in the provider interface's terms and back: toLanguageModelPrompt is what the
 * model activity sends; fromLanguageModelPrompt is how a scripted model reads a request again.
 */

/**
 * The conversation as a provider-interface prompt: the system prompt first; an assistant message
 * as its reasoning blocks (with the provider metadata they came with), its text and its tool calls;
 * each run of tool results as one `tool` message (errors as `error-text`, so providers that have an
 * error flag set it).
 */
export function toLanguageModelPrompt(
  system: string | undefined,
  messages: readonly ConversationMessage[],
): LanguageModelV4Prompt {
  const prompt: LanguageModelV4Prompt = system ? [{ role: 'system', content: system }] : [];
  for (const message of messages) {
    if (message.role === 'user') {
      prompt.push({ role: 'user', content: [{ type: 'text', text: message.text }] });
    } else if (message.role === 'assistant') {
      prompt.push(toAssistantMessage(message));
    } else {
      const part = toToolResultPart(message);
      const last = prompt.at(-1);
      if (last?.role === 'tool') last.content.push(part);
      else prompt.push({ role: 'tool', content: [part] });
    }
  }
  return prompt;
}

function toAssistantMessage(message: AssistantMessage): LanguageModelV4Message {
  const content: Extract<LanguageModelV4Message, { role: 'assistant' }>['content'] = [];
  for (const block of message.reasoning ?? []) {
    content.push({ type: 'reasoning', text: block.text, ...withOptions(block.providerMetadata) });
  }
  if (message.text) content.push({ type: 'text', text: message.text });
  for (const call of message.toolCalls) {
    content.push({
      type: 'tool-call',
      toolCallId: call.id,
      toolName: call.name,
      input: toolCallInput(call.args),
      ...withOptions(message.toolCallMetadata?.[call.id]),
    });
  }
  return { role: 'assistant', content };
}

function toToolResultPart(
  message: ToolResultMessage,
): Extract<LanguageModelV4Message, { role: 'tool' }>['content'][number] {
  return {
    type: 'tool-result',
    toolCallId: message.callId,
    toolName: message.toolName,
    output: { type: message.isError ? 'error-text' : 'text', value: message.content },
  };
}

function withOptions(metadata: ProviderMetadata | undefined): { providerOptions?: SharedV4ProviderOptions } {
  return metadata === undefined ? {} : { providerOptions: metadata };
}

/** A prompt read back as the system prompt and the conversation (what a scripted model's steps see). */
export function fromLanguageModelPrompt(prompt: LanguageModelV4Prompt): {
  system?: string;
  messages: ConversationMessage[];
} {
  const systems: string[] = [];
  const messages: ConversationMessage[] = [];
  for (const message of prompt) {
    switch (message.role) {
      case 'system':
        systems.push(message.content);
        break;
      case 'user':
        messages.push({
          role: 'user',
          text: message.content.map((part) => (part.type === 'text' ? part.text : '')).join(''),
        });
        break;
      case 'assistant': {
        const text = message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
        const reasoning: ReasoningBlock[] = message.content.flatMap((part) =>
          part.type === 'reasoning' ? [{ text: part.text }] : [],
        );
        messages.push({
          role: 'assistant',
          ...(text ? { text } : {}),
          toolCalls: message.content.flatMap((part) =>
            part.type === 'tool-call'
              ? [{ id: part.toolCallId, name: part.toolName, args: parseToolCallArguments(part.input) }]
              : [],
          ),
          ...(reasoning.length > 0 ? { reasoning } : {}),
        });
        break;
      }
      case 'tool':
        for (const part of message.content) {
          if (part.type !== 'tool-result') continue;
          messages.push({
            role: 'tool',
            callId: part.toolCallId,
            toolName: part.toolName,
            content: outputText(part.output),
            isError: part.output.type === 'error-text' || part.output.type === 'error-json',
          });
        }
        break;
    }
  }
  return { ...(systems.length > 0 ? { system: systems.join('\n') } : {}), messages };
}

function outputText(output: LanguageModelV4ToolResultOutput): string {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return output.value;
    case 'json':
    case 'error-json':
      return JSON.stringify(output.value);
    case 'execution-denied':
      return output.reason ?? 'denied';
    case 'content':
      return output.value.map((part) => (part.type === 'text' ? part.text : '')).join('');
  }
}
