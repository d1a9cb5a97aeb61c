/**
 * Values as Letta's schema (pydantic, lax mode) reads them: an integer field also takes an integral
 * float or a string of an integer (`"3"` → 3); a boolean field also takes 0/1 and the strings
 * `true/false`, `1/0`, `yes/no`, `on/off`, `t/f`, `y/n` (any case). Anything else is returned as is,
 * so the normal field check reports it.
 */
const trueWords = new Set(['true', '1', 'yes', 'on', 't', 'y']);
const falseWords = new Set(['false', '0', 'no', 'off', 'f', 'n']);

/** The integer pydantic would read from `value`, else `value` unchanged. */
export function laxInteger(value: unknown): unknown {
  if (typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value)) return Number(value.trim());
  return value;
}

/** The boolean pydantic would read from `value`, else `value` unchanged. */
export function laxBoolean(value: unknown): unknown {
  if (value === 0 || value === 1) return value === 1;
  if (typeof value !== 'string') return value;
  const word = value.trim().toLowerCase();
  if (trueWords.has(word)) return true;
  if (falseWords.has(word)) return false;
  return value;
}
