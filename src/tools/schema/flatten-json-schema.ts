import type { JsonObject, JsonValue } from '../../dispatch';
import { isJsonObject } from './is-json-object';
import { SchemaFlatteningError } from './schema-flattening-error';

/** Keywords whose value is one schema. */
const schemaKeys = new Set(['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else']);
/** Keywords whose value is a list of schemas. */
const schemaListKeys = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
/** Keywords whose value maps names to schemas. */
const schemaMapKeys = new Set(['properties', 'patternProperties', 'dependentSchemas']);
/** Keywords dropped everywhere: identifiers and definition tables nobody downstream may resolve. */
const droppedKeys = new Set(['$schema', '$defs', 'definitions', '$id', 'id', '$anchor', '$comment']);
/** Annotations that stay on the outside when a `type` list becomes an `anyOf`. */
const outerKeys = new Set(['description', 'title', 'default', 'examples']);

/**
 * Rewrites a JSON Schema into the subset that OpenAI strict mode, Anthropic and Gemini all accept:
 * every local `$ref` inlined (recursion refused), `$defs`/`$schema`/ids dropped, `oneOf` → `anyOf`,
 * `const` → one-value `enum`, `type` lists → `anyOf`, `allOf` of objects merged. The root must be a
 * plain `type: 'object'` schema without composition; it always gets a `properties` table.
 *
 * @throws SchemaFlatteningError when that is impossible.
 */
export function flattenJsonSchema(schema: JsonObject): JsonObject {
  const definitions = { $defs: tableAt(schema, '$defs'), definitions: tableAt(schema, 'definitions') };
  const root = flattenNode(schema, { definitions, expanding: [] }, '#');
  for (const key of ['anyOf', 'oneOf', 'allOf', 'not', 'enum', 'if']) {
    if (key in root) {
      throw new SchemaFlatteningError({
        at: '#',
        problem: `the root may not use "${key}": wrap the alternatives in a property of a plain object`,
      });
    }
  }
  if (root['type'] !== 'object') {
    throw new SchemaFlatteningError({ at: '#', problem: 'the root must be a schema of `type: "object"`' });
  }
  return 'properties' in root ? root : { ...root, properties: {} };
}

interface FlattenContext {
  /** The root's definition tables, by keyword. */
  readonly definitions: { readonly $defs: JsonObject; readonly definitions: JsonObject };
  /** `$ref`s being inlined on the current path; meeting one again means recursion. */
  readonly expanding: readonly string[];
}

function flattenNode(node: JsonObject, context: FlattenContext, at: string): JsonObject {
  const reference = node['$ref'];
  if (reference !== undefined) return inlineReference(node, reference, context, at);
  // Object.fromEntries defines own properties, so a hostile "__proto__" key stays a plain key.
  let result: JsonObject = Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => !droppedKeys.has(key))
      .map(([key, value]) => [key, flattenKeyword(key, value, context, `${at}/${key}`)]),
  );
  result = renameKeywords(result, at);
  if (Array.isArray(result['type'])) result = splitTypeList(result);
  if ('allOf' in result) result = mergeAllOf(result, at);
  return result;
}

function flattenKeyword(key: string, value: JsonValue, context: FlattenContext, at: string): JsonValue {
  if (schemaKeys.has(key) && isJsonObject(value)) return flattenNode(value, context, at);
  if (schemaListKeys.has(key) && Array.isArray(value)) {
    return value.map((member, index) =>
      isJsonObject(member) ? flattenNode(member, context, `${at}/${index}`) : member,
    );
  }
  if (schemaMapKeys.has(key) && isJsonObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([name, member]) => [
        name,
        isJsonObject(member) ? flattenNode(member, context, `${at}/${name}`) : member,
      ]),
    );
  }
  return value;
}

function inlineReference(node: JsonObject, reference: JsonValue, context: FlattenContext, at: string): JsonObject {
  if (typeof reference !== 'string') throw new SchemaFlatteningError({ at, problem: '"$ref" must be a string' });
  if (context.expanding.includes(reference) || reference === '#') {
    throw new SchemaFlatteningError({ at, problem: `recursive schema (through ${reference}) cannot be inlined` });
  }
  const target = resolveReference(reference, context, at);
  const inlined = flattenNode(target, { ...context, expanding: [...context.expanding, reference] }, at);
  const siblings: JsonObject = Object.fromEntries(Object.entries(node).filter(([key]) => key !== '$ref'));
  // Keywords next to a `$ref` (usually a description) refine the referenced schema.
  return { ...inlined, ...flattenNode(siblings, context, at) };
}

function resolveReference(reference: string, context: FlattenContext, at: string): JsonObject {
  const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(reference);
  const table = match?.[1] === '$defs' ? context.definitions.$defs : context.definitions.definitions;
  const name = match?.[2]?.replace(/~1/g, '/').replace(/~0/g, '~');
  const target = name !== undefined && Object.hasOwn(table, name) ? table[name] : undefined;
  if (!isJsonObject(target)) {
    throw new SchemaFlatteningError({ at, problem: `cannot resolve "$ref": "${reference}" (only local definitions)` });
  }
  return target;
}

function renameKeywords(node: JsonObject, at: string): JsonObject {
  const result = { ...node };
  if ('const' in result) {
    const value = result['const'] ?? null;
    delete result['const'];
    if (!('enum' in result)) result['enum'] = [value];
  }
  if ('oneOf' in result) {
    if ('anyOf' in result) throw new SchemaFlatteningError({ at, problem: '"oneOf" next to "anyOf" is not supported' });
    result['anyOf'] = result['oneOf'] ?? [];
    delete result['oneOf'];
  }
  return result;
}

function splitTypeList(node: JsonObject): JsonObject {
  const types = Array.isArray(node['type']) ? node['type'] : [];
  const entries = Object.entries(node).filter(([key]) => key !== 'type');
  const outer: JsonObject = Object.fromEntries(entries.filter(([key]) => outerKeys.has(key)));
  const inner: JsonObject = Object.fromEntries(entries.filter(([key]) => !outerKeys.has(key)));
  if (types.length === 1) return { ...outer, ...inner, type: types[0] ?? null };
  return { ...outer, anyOf: types.map((type) => ({ type, ...inner })) };
}

function mergeAllOf(node: JsonObject, at: string): JsonObject {
  const members = Array.isArray(node['allOf']) ? node['allOf'] : [];
  const properties = new Map<string, JsonValue>(Object.entries(tableAt(node, 'properties')));
  const required = new Set<string>(listAt(node, 'required'));
  for (const member of members) {
    if (!isJsonObject(member) || member['type'] !== 'object' || 'anyOf' in member || 'allOf' in member) {
      throw new SchemaFlatteningError({ at, problem: '"allOf" is supported only between plain object schemas' });
    }
    for (const [name, property] of Object.entries(tableAt(member, 'properties'))) {
      const known = properties.get(name);
      if (known !== undefined && JSON.stringify(known) !== JSON.stringify(property)) {
        throw new SchemaFlatteningError({ at, problem: `"allOf" members disagree on property "${name}"` });
      }
      properties.set(name, property);
    }
    for (const name of listAt(member, 'required')) required.add(name);
  }
  const rest = Object.entries(node).filter(([key]) => !['allOf', 'type', 'properties', 'required'].includes(key));
  return {
    ...Object.fromEntries(rest),
    type: 'object',
    properties: Object.fromEntries(properties),
    ...(required.size > 0 ? { required: [...required] } : {}),
  };
}

function tableAt(node: JsonObject, key: string): JsonObject {
  const value = node[key];
  return isJsonObject(value) ? value : {};
}

function listAt(node: JsonObject, key: string): string[] {
  const value = node[key];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
