import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../../src/dispatch/json-value';
import { flattenJsonSchema } from '../../../../src/tools/schema/flatten-json-schema';
import { SchemaFlatteningError } from '../../../../src/tools/schema/schema-flattening-error';

describe('flattenJsonSchema', () => {
  it('inlines $defs and draft-07 definitions, keeping sibling keywords of a $ref', () => {
    const schema: JsonObject = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        home: { $ref: '#/$defs/Place', description: 'Where you live' },
        work: { $ref: '#/definitions/Place' },
      },
      $defs: { Place: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
      definitions: { Place: { type: 'object', properties: { name: { type: 'string' } } } },
    };
    expect(flattenJsonSchema(schema)).toMatchInlineSnapshot(`
      {
        "properties": {
          "home": {
            "description": "Where you live",
            "properties": {
              "name": {
                "type": "string",
              },
            },
            "required": [
              "name",
            ],
            "type": "object",
          },
          "work": {
            "properties": {
              "name": {
                "type": "string",
              },
            },
            "type": "object",
          },
        },
        "type": "object",
      }
    `);
  });

  it('refuses recursion through definitions and through the root', () => {
    const throughDefinitions: JsonObject = {
      type: 'object',
      properties: { node: { $ref: '#/$defs/Node' } },
      $defs: { Node: { type: 'object', properties: { next: { $ref: '#/$defs/Node' } } } },
    };
    const throughRoot: JsonObject = { type: 'object', properties: { self: { $ref: '#' } } };
    expect(() => flattenJsonSchema(throughDefinitions)).toThrow(/recursive schema/);
    expect(() => flattenJsonSchema(throughRoot)).toThrow(SchemaFlatteningError);
  });

  it('refuses references it cannot resolve locally', () => {
    const remote: JsonObject = { type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } };
    const inherited: JsonObject = { type: 'object', properties: { a: { $ref: '#/$defs/constructor' } } };
    expect(() => flattenJsonSchema(remote)).toThrow(/cannot resolve/);
    expect(() => flattenJsonSchema(inherited)).toThrow(/cannot resolve/);
  });

  it('keeps a property called __proto__ as a plain property', () => {
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}') as JsonObject;
    const flat = flattenJsonSchema(schema);
    const properties = flat['properties'] as JsonObject;
    expect(Object.keys(properties)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
  });

  it('merges allOf of plain objects and refuses one whose members disagree', () => {
    const merged = flattenJsonSchema({
      type: 'object',
      properties: {
        both: {
          allOf: [
            { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
            { type: 'object', properties: { b: { type: 'number' } }, required: ['b'] },
          ],
        },
      },
    });
    expect(merged['properties']).toMatchInlineSnapshot(`
      {
        "both": {
          "properties": {
            "a": {
              "type": "string",
            },
            "b": {
              "type": "number",
            },
          },
          "required": [
            "a",
            "b",
          ],
          "type": "object",
        },
      }
    `);
    expect(() =>
      flattenJsonSchema({
        type: 'object',
        properties: {
          both: {
            allOf: [
              { type: 'object', properties: { a: { type: 'string' } } },
              { type: 'object', properties: { a: { type: 'number' } } },
            ],
          },
        },
      }),
    ).toThrow(/disagree on property "a"/);
  });

  it('splits a type list into anyOf, keeping annotations outside', () => {
    const flat = flattenJsonSchema({
      type: 'object',
      properties: { size: { type: ['integer', 'null'], minimum: 0, description: 'Bytes' } },
    });
    expect(flat['properties']).toMatchInlineSnapshot(`
      {
        "size": {
          "anyOf": [
            {
              "minimum": 0,
              "type": "integer",
            },
            {
              "minimum": 0,
              "type": "null",
            },
          ],
          "description": "Bytes",
        },
      }
    `);
  });

  it('adds an empty properties table to a root without one', () => {
    expect(flattenJsonSchema({ type: 'object' })).toEqual({ type: 'object', properties: {} });
  });
});
