import type { JsonObject, JsonValue } from '../../dispatch';
import { isJsonObject } from './is-json-object';

/** Keywords whose value is one schema. */
const schemaKeys = new Set(['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else']);
/** Keywords whose value is a list of schemas. */
const schemaListKeys = new Set(['anyOf', 'oneOf', 'prefixItems', 'items']);
/** Keywords whose value maps names to schemas. */
const schemaMapKeys = new Set(['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions']);
/** Keywords by which a schema says what it does with keys it does not list. */
const extraKeyPolicies = ['additionalProperties', 'patternProperties', 'unevaluatedProperties'];
/** Keywords that combine a schema with others: its properties may be listed elsewhere, so it is left as it is. */
const combinators = ['allOf', 'anyOf', 'oneOf', '$ref', 'not', 'if'];

/**
 * A JSON Schema (as an MCP server declares a tool's input) in which the objects that list their
 * properties refuse keys they do not list, as toolrail's own tools do: the root object, and every
 * nested schema with a `properties` table, gets `additionalProperties: false` unless it states a
 * policy for other keys itself (`additionalProperties`, `patternProperties`,
 * `unevaluatedProperties`). An object without `properties` (a free-form map) stays open, and so do
 * schemas combined with others (`allOf`, `$ref`…: their properties may be listed elsewhere) and the
 * members of an `allOf`. Returns a new schema; never mutates.
 */
export function closeObjectSchemas(schema: JsonObject): JsonObject {
  return closeNode(schema, true);
}

function closeNode(node: JsonObject, isRoot: boolean): JsonObject {
  const result: JsonObject = Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, closeKeyword(key, value)]),
  );
  const listsProperties = isJsonObject(node['properties']) || (isRoot && isObjectTyped(node));
  const statesPolicy = extraKeyPolicies.some((key) => key in node);
  const combined = combinators.some((key) => key in node);
  if (listsProperties && isObjectTyped(node) && !statesPolicy && !combined) result['additionalProperties'] = false;
  return result;
}

function closeKeyword(key: string, value: JsonValue): JsonValue {
  if (schemaKeys.has(key) && isJsonObject(value)) return closeNode(value, false);
  if (schemaListKeys.has(key) && Array.isArray(value)) {
    return value.map((member) => (isJsonObject(member) ? closeNode(member, false) : member));
  }
  if (schemaMapKeys.has(key) && isJsonObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([name, member]) => [name, isJsonObject(member) ? closeNode(member, false) : member]),
    );
  }
  // allOf members are parts of one object: closing each would refuse the others' properties.
  return value;
}

/** Whether a schema describes objects: `type: 'object'` (alone or in a list), or no type but properties. */
function isObjectTyped(node: JsonObject): boolean {
  const type = node['type'];
  if (type === 'object') return true;
  if (Array.isArray(type)) return type.includes('object');
  return type === undefined && isJsonObject(node['properties']);
}
