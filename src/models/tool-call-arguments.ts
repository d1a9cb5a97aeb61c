/**
 * Parses the arguments of a tool call. The provider interface hands them over as JSON text, but
 * servers and models differ, so any of these is accepted:
 * - a JSON object (text), which becomes that object;
 * - an empty (or whitespace) string, `null` or `undefined`, which become `{}` (many models send `''`
 *   for tools without parameters);
 * - an object itself (llama.cpp and TGI send `arguments` as a JSON object), kept as it is.
 * Anything else (invalid JSON, or JSON that is not an object) stays the raw string, so the session
 * can refuse it with a precise reason and the model sees its own text again.
 */
export function parseToolCallArguments(input: unknown): unknown {
  if (input === undefined || input === null) return {};
  if (isPlainObject(input)) return input;
  if (typeof input !== 'string') return JSON.stringify(input);
  if (input.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(input);
    return isPlainObject(parsed) ? parsed : input;
  } catch {
    return input;
  }
}

/** Whether `value` is a JSON object (not null, not an array). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The arguments to send back to the provider for a proposed call: an object as it is; a raw string
 * (arguments that did not parse) parsed again if it can be, else `{}` (providers take only objects).
 */
export function toolCallInput(args: unknown): Record<string, unknown> {
  const parsed = typeof args === 'string' ? parseToolCallArguments(args) : args;
  return isPlainObject(parsed) ? parsed : {};
}
