import type { ProposedToolCall } from './proposed-tool-call';
import type { ProviderMetadata } from './provider-metadata';

export type { ProposedToolCall };

/** A message the user (or the session, on the user's behalf) sent. */
export interface UserMessage {
  role: 'user';
  text: string;
}

/**
 * A block of the model's reasoning ("thinking") as the provider returned it. It is stored with the
 * message and sent back on later requests: some providers require it (Anthropic's extended thinking
 * with tool use checks each block's signature, which `providerMetadata` carries).
 */
export interface ReasoningBlock {
  text: string;
  providerMetadata?: ProviderMetadata;
}

/** A model turn: optional text plus the tool calls it proposed (possibly none). */
export interface AssistantMessage {
  role: 'assistant';
  text?: string;
  toolCalls: ProposedToolCall[];
  /** The model's reasoning blocks, in order, when the provider returned any. */
  reasoning?: ReasoningBlock[];
  /**
   * Provider metadata of the tool calls, by call id (e.g. a provider's item ids or signatures),
   * sent back with them.
   */
  toolCallMetadata?: Record<string, ProviderMetadata>;
}

/** The result of one proposed tool call; `isError` marks refusals, failures and cancellations. */
export interface ToolResultMessage {
  role: 'tool';
  /** The `id` of the {@link ProposedToolCall} this answers. */
  callId: string;
  toolName: string;
  /** The text the model reads. */
  content: string;
  isError: boolean;
  /** `content` is the JSON text of the output the tool returned (a value other than a string). */
  json?: true;
  /**
   * `content` is a notice around the first characters of an output too large for the conversation:
   * `preview` (those characters), `chars` (the whole output's length) and `key`, where the content
   * store holds the whole output (absent when it could not be stored).
   */
  offloaded?: { preview: string; chars: number; key?: string };
}

/** One entry of the provider-neutral conversation. Plain JSON: it is stored in the content store. */
export type ConversationMessage = UserMessage | AssistantMessage | ToolResultMessage;
