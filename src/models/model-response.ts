import type { ProposedToolCall } from './conversation-message';

/**
 * Why the model stopped, as toolrail acts on it (docs/models.md has the table):
 * - `stop`: it finished; a text answer ends the run when the rules let it.
 * - `tool-calls`: it asks for tools; they are judged and run.
 * - `length`: the output limit (or the context window) cut it off; its calls are not run and the
 *   run ends `max_tokens`.
 * - `content-filter`: the provider's content filter stopped it; the run ends `content_filter`.
 * - `refusal`: the model refused; the run ends `refusal`.
 * - `pause`: the provider paused a long turn (Anthropic's `pause_turn`); the model is called again.
 * - `other`: a reason the provider did not map; treated like `stop` (or `tool-calls` when it proposed calls).
 */
export type ModelFinishReason = 'stop' | 'tool-calls' | 'length' | 'content-filter' | 'refusal' | 'pause' | 'other';

/** Token counts the provider reported for one model call. */
export interface ModelUsage {
  /** Prompt tokens, cached ones included. */
  inputTokens: number;
  /** Generated tokens, reasoning included. */
  outputTokens: number;
  /** Prompt tokens read from the provider's cache, when it said. */
  cachedInputTokens?: number;
  /** Prompt tokens written to the provider's cache, when it said (Anthropic). */
  cacheWriteInputTokens?: number;
  /** Output tokens spent on reasoning, when the provider said. */
  reasoningTokens?: number;
}

/** What one model call produced, provider-neutral. Plain JSON: it is recorded in Temporal history. */
export interface ModelResponse {
  text?: string;
  /** Proposed calls in the order the model wrote them; empty when it answered in text only. */
  toolCalls: ProposedToolCall[];
  finishReason: ModelFinishReason;
  /** The provider's own finish reason, e.g. `end_turn`, `pause_turn`, `content_filter`, when it gave one. */
  rawFinishReason?: string;
  usage?: ModelUsage;
}
