import type { ProposedToolCall } from './conversation-message';

/**
 * Why the model stopped: `end` (a final answer), `tool_calls` (it wants tools run),
 * `max_tokens` (cut off by the output or context limit), `other` (refusal, content filter, pause).
 */
export type ModelStopReason = 'end' | 'tool_calls' | 'max_tokens' | 'other';

/** Token counts the provider reported for one call. */
export interface ModelUsage {
  /** Prompt tokens, including cached ones. */
  inputTokens: number;
  outputTokens: number;
}

/** What one model call produced, provider-neutral. Plain JSON: it is recorded in Temporal history. */
export interface ModelResponse {
  text?: string;
  /** Proposed calls in the order the model wrote them; empty when it answered in text only. */
  toolCalls: ProposedToolCall[];
  stopReason: ModelStopReason;
  usage?: ModelUsage;
}
