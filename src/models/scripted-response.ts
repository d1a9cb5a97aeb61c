import type { ModelFinishReason, ModelUsage } from './model-response';

/** A tool call in a script. `id` defaults to `call_<turn>_<index>`, `args` to `{}`. */
export interface ScriptedToolCall {
  id?: string;
  name: string;
  /** The arguments: an object, or a string sent as the call's raw JSON text (e.g. `''` or invalid JSON). */
  args?: unknown;
}

/**
 * A canned model answer. Everything is optional: `toolCalls` defaults to none, `finishReason` to
 * `tool-calls` when there are calls and `stop` otherwise.
 */
export interface ScriptedResponse {
  text?: string;
  toolCalls?: ScriptedToolCall[];
  finishReason?: ModelFinishReason;
  usage?: ModelUsage;
  /** Reasoning ("thinking") text, returned before the answer. */
  reasoning?: string;
  /**
   * Wait this long, in milliseconds, before answering; the call's abort signal cuts the wait short.
   * A streamed call sends its first text delta at once and waits after it, so an interrupt lands mid-stream.
   */
  delayMs?: number;
}

/** Extra fields for the response builders. */
export type ScriptedResponseOptions = Pick<
  ScriptedResponse,
  'text' | 'usage' | 'delayMs' | 'finishReason' | 'reasoning'
>;

/** A final text answer (`finishReason: 'stop'`). */
export function textResponse(text: string, options: Omit<ScriptedResponseOptions, 'text'> = {}): ScriptedResponse {
  return { ...options, text };
}

/** One tool call, optionally with text before it and a fixed call id. */
export function toolCallResponse(
  name: string,
  args: unknown = {},
  options: ScriptedResponseOptions & { id?: string } = {},
): ScriptedResponse {
  const { id, ...rest } = options;
  return { ...rest, toolCalls: [{ name, args, ...(id !== undefined && { id }) }] };
}

/** Several tool calls in one response (the model asks for them to run together), in this order. */
export function parallelToolCallsResponse(
  calls: ScriptedToolCall[],
  options: ScriptedResponseOptions = {},
): ScriptedResponse {
  return { ...options, toolCalls: calls };
}
