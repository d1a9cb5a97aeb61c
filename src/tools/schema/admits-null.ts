import type { JsonObject } from '../../dispatch';
import { isJsonObject } from './is-json-object';

/**
 * Whether a flattened schema accepts `null` at its top level (`type: 'null'`, an `enum` with null,
 * or an `anyOf` branch).
 */
export function admitsNull(schema: JsonObject): boolean {
  if (schema['type'] === 'null') return true;
  if (Array.isArray(schema['enum']) && schema['enum'].includes(null)) return true;
  const anyOf = schema['anyOf'];
  return Array.isArray(anyOf) && anyOf.some((member) => isJsonObject(member) && admitsNull(member));
}
