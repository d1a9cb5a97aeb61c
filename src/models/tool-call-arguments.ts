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
