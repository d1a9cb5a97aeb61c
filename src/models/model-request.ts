import type { ConversationMessage } from './conversation-message';

/** A JSON Schema whose root describes an object (`type: 'object'`), as plain JSON. */
export type JsonSchemaObject = Record<string, unknown>;

/** A tool as the model sees it. */
export interface ModelToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the tool's input; its root is an object schema. */
  inputSchema: JsonSchemaObject;
}

/** One model call, provider-neutral. Plain JSON: the activity receives it through Temporal history. */
export interface ModelRequest {
  /** The provider's model name, e.g. `gpt-4.1` or `claude-sonnet-4-5`. */
  model: string;
  system?: string;
  messages: ConversationMessage[];
  /** The tools visible this turn; may be empty. */
  tools: ModelToolSpec[];
  temperature?: number;
  /** Upper bound on generated tokens. Each adapter documents its default. */
  maxOutputTokens?: number;
  /** 0-based index of this model call in the session. Scripted models pick their response by it. */
  turn: number;
}
