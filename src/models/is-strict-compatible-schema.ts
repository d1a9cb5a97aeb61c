import { isPlainObject } from './tool-call-arguments';

/** Keywords that providers' strict (constrained decoding) modes reject or ignore. */
const unsupportedKeywords = [
  'allOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'patternProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'contains',
  'minContains',
  'maxContains',
  'uniqueItems',
];

/**
 * Whether a tool's input schema can be sent with `strict: true`: its root and every nested object
 * schema list all their properties as `required` and set `additionalProperties: false`, and no
 * keyword outside the strict subset appears. Conservative: when in doubt, `false`.
 */
export function isStrictCompatibleSchema(schema: unknown): boolean {
  if (!isPlainObject(schema) || schema.type !== 'object') return false;
  return isStrictNode(schema, 0);
}

const maxDepth = 32;

function isStrictNode(node: unknown, depth: number): boolean {
  if (depth > maxDepth) return false;
  if (!isPlainObject(node)) return false;
  if (unsupportedKeywords.some((keyword) => Object.hasOwn(node, keyword))) return false;
  const isObject = node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object'));
  if (isObject && !isStrictObject(node)) return false;
  return childSchemas(node).every((child) => isStrictNode(child, depth + 1));
}

function isStrictObject(node: Record<string, unknown>): boolean {
  if (node.additionalProperties !== false) return false;
  const properties = node.properties ?? {};
  if (!isPlainObject(properties)) return false;
  const required = node.required ?? [];
  if (!Array.isArray(required)) return false;
  return Object.keys(properties).every((key) => required.includes(key));
}

function childSchemas(node: Record<string, unknown>): unknown[] {
  const children: unknown[] = [];
  for (const key of ['properties', '$defs', 'definitions']) {
    const group = node[key];
    if (isPlainObject(group)) children.push(...Object.values(group));
  }
  for (const key of ['anyOf', 'prefixItems']) {
    const list = node[key];
    if (Array.isArray(list)) children.push(...(list as unknown[]));
  }
  if (node.items !== undefined)
    children.push(...(Array.isArray(node.items) ? (node.items as unknown[]) : [node.items]));
  return children;
}
