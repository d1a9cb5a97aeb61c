import type { JsonObject } from '../../dispatch';

/** Whether a value (typically parsed JSON) is an object: not an array, not null. */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
