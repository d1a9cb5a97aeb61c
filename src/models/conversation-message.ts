import type { ProposedToolCall } from '../kernel';

export type { ProposedToolCall };

/** A message the user (or the session, on the user's behalf) sent. */
export interface UserMessage {
  role: 'user';
  text: string;
}

/** A model turn: optional text plus the tool calls it proposed (possibly none). */
export interface AssistantMessage {
  role: 'assistant';
  text?: string;
  toolCalls: ProposedToolCall[];
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
}

/** One entry of the provider-neutral conversation. Plain JSON: it travels through Temporal history. */
export type ConversationMessage = UserMessage | AssistantMessage | ToolResultMessage;
