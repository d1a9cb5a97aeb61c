import type { JsonObject, JsonValue } from '../../dispatch';
import { admitsNull } from './admits-null';
import { isJsonObject } from './is-json-object';

/**
 * Removes properties that are `null` where the flattened schema makes them optional and not nullable:
 * what a model in OpenAI strict mode sends for "absent". Follows properties, array items and the one
 * non-null branch of a nullable `anyOf`; returns a new value, never mutates.
 */
export function dropNullOptionalProperties(value: JsonValue, schema: JsonObject): JsonValue {
  const target = unwrapNullable(schema);
  if (Array.isArray(value)) {
    const items = target['items'];
    return isJsonObject(items) ? value.map((item) => dropNullOptionalProperties(item, items)) : value;
  }
  if (!isJsonObject(value) || target['type'] !== 'object') return value;
  const properties = isJsonObject(target['properties']) ? target['properties'] : {};
  const required = new Set(Array.isArray(target['required']) ? target['required'] : []);
  const kept: [string, JsonValue][] = [];
  for (const [key, item] of Object.entries(value)) {
    const property = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (!isJsonObject(property)) {
      kept.push([key, item]);
    } else if (item !== null) {
      kept.push([key, dropNullOptionalProperties(item, property)]);
    } else if (required.has(key) || admitsNull(property)) {
      kept.push([key, item]);
    }
  }
  return Object.fromEntries(kept);
}

function unwrapNullable(schema: JsonObject): JsonObject {
  const anyOf = schema['anyOf'];
  if (!Array.isArray(anyOf)) return schema;
  const others = anyOf.filter((member) => !(isJsonObject(member) && member['type'] === 'null'));
  const only = others[0];
  return others.length === 1 && isJsonObject(only) ? only : schema;
}
