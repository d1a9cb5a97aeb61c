import type { JsonValue } from '../../dispatch';

/** A value converted to plain JSON (`undefined` becomes `null`), or `undefined` when it cannot be (cycles, BigInt…). */
export function toJsonValue(value: unknown): JsonValue | undefined {
  if (value === undefined) return null;
  try {
    const text = JSON.stringify(value);
    return text === undefined ? null : (JSON.parse(text) as JsonValue);
  } catch {
    return undefined;
  }
}
