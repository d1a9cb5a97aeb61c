import type { ConversationMessage } from './conversation-message';
import type { GenerationSettings } from '../model-settings';

/** A JSON Schema whose root describes an object (`type: 'object'`), as plain JSON. */
export type JsonSchemaObject = Record<string, unknown>;

/** A tool as the model sees it. */
export interface ModelToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the tool's input; its root is an object schema. */
  inputSchema: JsonSchemaObject;
}

/**
 * One model call in the conversation's own terms: what the activity sends (as the provider
 * interface's prompt) and what a scripted model's step function reads back.
 */
export interface ModelRequest extends Omit<GenerationSettings, 'contextBudgetBytes' | 'stream'> {
  /** The model's id, as the model reports it (`modelId`). */
  model: string;
  system?: string;
  messages: ConversationMessage[];
  /** The tools visible this turn; may be empty. */
  tools: ModelToolSpec[];
  /** 0-based index of this model call in the session. Scripted models pick their response by it. */
  turn: number;
  /** The session this call belongs to, when a session made it. */
  sessionId?: string;
}
