import { describe, expect, it } from 'vitest';
import { closeObjectSchemas } from '../../../../src/tools/schema/close-object-schemas';

describe('closeObjectSchemas', () => {
  it('closes the root and every nested object that lists its properties, in items, unions and definitions', () => {
    const closed = closeObjectSchemas({
      type: 'object',
      properties: {
        edits: { type: 'array', items: { type: 'object', properties: { oldText: { type: 'string' } } } },
        target: { anyOf: [{ type: 'object', properties: { id: { type: 'string' } } }, { type: 'null' }] },
        node: { $ref: '#/$defs/Node' },
      },
      $defs: { Node: { type: 'object', properties: { name: { type: 'string' } } } },
    });
    expect(closed).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: {
        edits: {
          type: 'array',
          items: { type: 'object', properties: { oldText: { type: 'string' } }, additionalProperties: false },
        },
        target: {
          anyOf: [
            { type: 'object', properties: { id: { type: 'string' } }, additionalProperties: false },
            { type: 'null' },
          ],
        },
        node: { $ref: '#/$defs/Node' },
      },
      $defs: { Node: { type: 'object', properties: { name: { type: 'string' } }, additionalProperties: false } },
    });
  });

  it('closes a root without properties (a tool without arguments)', () => {
    expect(closeObjectSchemas({ type: 'object' })).toEqual({ type: 'object', additionalProperties: false });
  });

  it('leaves open what the server left open on purpose or cannot be closed alone', () => {
    const schema = {
      type: 'object',
      properties: {
        metadata: { type: 'object' },
        labels: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } },
        matched: { type: 'object', properties: { a: { type: 'string' } }, patternProperties: { '^x-': {} } },
        merged: {
          allOf: [
            { type: 'object', properties: { a: { type: 'string' } } },
            { type: 'object', properties: { b: { type: 'string' } } },
          ],
        },
      },
      additionalProperties: true,
    };
    expect(closeObjectSchemas(schema)).toEqual(schema);
  });

  it('treats a property named like a keyword as a property, and never mutates its input', () => {
    const schema = { type: 'object', properties: { properties: { type: 'string' }, items: { type: 'number' } } };
    const copy = structuredClone(schema);
    expect(closeObjectSchemas(schema)).toEqual({ ...schema, additionalProperties: false });
    expect(schema).toEqual(copy);
  });
});
