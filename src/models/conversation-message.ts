/**
 * A tool call the model proposed. Nothing in it is trusted yet: the session resolves the name,
 * validates the arguments and checks the rules before anything runs.
 */
export interface ProposedToolCall {
  /** The provider's call id (or a deterministic fallback when the provider sent none); unique within one response. */
  id: string;
  /** The tool name exactly as the model wrote it. */
  name: string;
  /**
   * The arguments: the parsed JSON object; the raw string when the model's text is not a JSON
   * object (invalid JSON, or JSON of another type); `{}` for an empty string.
   */
  args: unknown;
}

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
