import type { ProposedToolCall } from '../kernel';

/**
 * Parses the arguments text of a tool call: a JSON object becomes that object; an empty (or
 * whitespace) string becomes `{}` (many models send `''` for tools without parameters); anything
 * else (invalid JSON, or JSON that is not an object) stays the raw string, so the session can
 * refuse it with a precise reason and the model sees its own text again.
 */
export function parseToolCallArguments(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return isPlainObject(parsed) ? parsed : text;
  } catch {
    return text;
  }
}

/** Whether `value` is a JSON object (not null, not an array). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Gives every call a non-empty id unique within the response: a missing, empty or repeated
 * provider id (some OpenAI-compatible servers send them) becomes `call_<turn>_<index>`.
 */
export function withUniqueToolCallIds(calls: ProposedToolCall[], turn: number): ProposedToolCall[] {
  const seen = new Set<string>();
  return calls.map((call, index) => {
    const id = call.id !== '' && !seen.has(call.id) ? call.id : fallbackToolCallId(turn, index);
    seen.add(id);
    return id === call.id ? call : { ...call, id };
  });
}

/** The deterministic id of the `index`th call of model turn `turn`. */
export function fallbackToolCallId(turn: number, index: number): string {
  return `call_${turn}_${index}`;
}
/**
 * The wire text of a proposed call's arguments: a raw string (arguments that did not parse) is
 * sent back verbatim, anything else as JSON.
 */
export function serializeToolCallArguments(args: unknown): string {
  return typeof args === 'string' ? args : JSON.stringify(args ?? {});
}
