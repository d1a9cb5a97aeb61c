import { describe, expect, it } from 'vitest';
import { isStrictCompatibleSchema } from '../../../src/models';

const strictObject = (properties: Record<string, unknown>) => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});

describe('isStrictCompatibleSchema', () => {
  it('accepts closed objects whose properties are all required, nested ones and anyOf branches included', () => {
    expect(
      isStrictCompatibleSchema(
        strictObject({
          title: { type: 'string' },
          tags: { type: 'array', items: strictObject({ name: { type: 'string' } }) },
          due: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        }),
      ),
    ).toBe(true);
  });

  it('rejects an object with an optional property', () => {
    expect(isStrictCompatibleSchema({ ...strictObject({ a: { type: 'string' } }), required: [] })).toBe(false);
  });

  it('rejects an open object anywhere in the tree', () => {
    const { additionalProperties: _open, ...nested } = strictObject({ name: { type: 'string' } });
    expect(isStrictCompatibleSchema(strictObject({ owner: nested }))).toBe(false);
  });

  it('rejects keywords outside the strict subset', () => {
    expect(isStrictCompatibleSchema(strictObject({ a: { allOf: [{ type: 'string' }] } }))).toBe(false);
    expect(isStrictCompatibleSchema(strictObject({ a: { type: 'array', uniqueItems: true } }))).toBe(false);
  });

  it('rejects a root that is not an object schema', () => {
    expect(isStrictCompatibleSchema({ type: 'string' })).toBe(false);
    expect(isStrictCompatibleSchema(null)).toBe(false);
  });
});
