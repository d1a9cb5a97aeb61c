import type { ModelResponse, ModelStopReason, ModelUsage } from './model-response';

/** A tool call in a script. `id` defaults to `call_<turn>_<index>`, `args` to `{}`. */
export interface ScriptedToolCall {
  id?: string;
  name: string;
  args?: unknown;
}

/**
 * A canned model answer. Everything is optional: `toolCalls` defaults to none, `stopReason` to
 * `tool_calls` when there are calls and `end` otherwise.
 */
export interface ScriptedResponse {
  text?: string;
  toolCalls?: ScriptedToolCall[];
  stopReason?: ModelStopReason;
  usage?: ModelUsage;
  /**
   * Wait this long, in milliseconds, before answering; the call's abort signal cuts the wait short.
   * A call that streams (`onTextDelta`) hands over its first word at once and waits after it.
   */
  delayMs?: number;
}

/** Extra fields for the response builders. */
export type ScriptedResponseOptions = Pick<ScriptedResponse, 'text' | 'usage' | 'delayMs' | 'stopReason'>;

/** A final text answer (`stopReason: 'end'`). */
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

/** Fills in a scripted response's defaults and copies it, so callers never share the script's objects. */
export function toModelResponse(response: ScriptedResponse, turn: number): ModelResponse {
  const toolCalls = (response.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_${turn}_${index}`,
    name: call.name,
    args: structuredClone(call.args ?? {}),
  }));
  return {
    ...(response.text !== undefined && { text: response.text }),
    toolCalls,
    stopReason: response.stopReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'end'),
    ...(response.usage && { usage: { ...response.usage } }),
  };
}
