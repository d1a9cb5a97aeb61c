import type { JsonObject, JsonValue } from '../../dispatch';
import { admitsNull } from './admits-null';
import { isJsonObject } from './is-json-object';

/** Keywords OpenAI strict mode accepts; everything else is dropped (zod still enforces it on parse). */
const strictKeywords = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  'enum',
  'description',
  'title',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
]);

/**
 * The OpenAI strict-mode variant of a portable schema (see `flattenJsonSchema`): every object lists
 * all its properties as required and forbids others, optional properties become nullable (the schema
 * phase drops a `null` sent for one), unsupported keywords are dropped. Returns `null` when the schema
 * has no strict form: records, tuples, or objects that allow unknown keys.
 */
export function toStrictJsonSchema(portable: JsonObject): JsonObject | null {
  try {
    return strictNode(portable);
  } catch (error) {
    if (error instanceof NotStrictError) return null;
    throw error;
  }
}

class NotStrictError extends Error {}

function strictNode(node: JsonObject): JsonObject {
  if ('prefixItems' in node || 'patternProperties' in node) throw new NotStrictError();
  // Strict mode has no "anything" schema.
  if (!('type' in node) && !('anyOf' in node) && !('enum' in node)) throw new NotStrictError();
  const result: JsonObject = Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => strictKeywords.has(key))
      .map(([key, value]) => [key, strictKeyword(key, value)]),
  );
  if (node['type'] === 'object') {
    const extra = node['additionalProperties'];
    if (extra !== undefined && extra !== false) throw new NotStrictError();
    const properties = isJsonObject(result['properties']) ? result['properties'] : {};
    const required = new Set(Array.isArray(node['required']) ? node['required'] : []);
    result['properties'] = Object.fromEntries(
      Object.entries(properties).map(([name, property]) => [
        name,
        required.has(name) || !isJsonObject(property) ? property : nullable(property),
      ]),
    );
    result['required'] = Object.keys(properties);
    result['additionalProperties'] = false;
  }
  return result;
}

function strictKeyword(key: string, value: JsonValue): JsonValue {
  if ((key === 'items' || key === 'additionalProperties') && isJsonObject(value)) return strictNode(value);
  if (key === 'anyOf' && Array.isArray(value))
    return value.map((member) => (isJsonObject(member) ? strictNode(member) : member));
  if (key === 'properties' && isJsonObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([name, member]) => [name, isJsonObject(member) ? strictNode(member) : member]),
    );
  }
  return value;
}

function nullable(schema: JsonObject): JsonObject {
  if (admitsNull(schema)) return schema;
  const { description, ...rest } = schema;
  return {
    ...(description === undefined ? {} : { description }),
    anyOf:
      Array.isArray(rest['anyOf']) && Object.keys(rest).length === 1
        ? [...rest['anyOf'], { type: 'null' }]
        : [rest, { type: 'null' }],
  };
}
