import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dropNullOptionalProperties } from '../../../../src/tools/schema/drop-null-optional-properties';
import { toPortableJsonSchema } from '../../../../src/tools/schema/to-portable-json-schema';

const schema = toPortableJsonSchema(
  z.object({
    query: z.string(),
    cursor: z.string().optional(),
    note: z.string().nullable().optional(),
    filters: z.array(z.object({ tag: z.string(), weight: z.number().optional() })).optional(),
    nested: z.object({ deep: z.string().optional() }).nullable(),
  }),
);

describe('dropNullOptionalProperties', () => {
  it('drops null sent for an optional property that does not accept null', () => {
    expect(dropNullOptionalProperties({ query: 'q', cursor: null }, schema)).toEqual({ query: 'q' });
  });

  it('keeps null where the schema accepts it', () => {
    expect(dropNullOptionalProperties({ query: 'q', note: null, nested: null }, schema)).toEqual({
      query: 'q',
      note: null,
      nested: null,
    });
  });

  it('keeps null for a required property, so the schema phase reports it', () => {
    expect(dropNullOptionalProperties({ query: null }, schema)).toEqual({ query: null });
  });

  it('follows array items and nullable objects', () => {
    const args = { query: 'q', filters: [{ tag: 'a', weight: null }], nested: { deep: null } };
    expect(dropNullOptionalProperties(args, schema)).toEqual({ query: 'q', filters: [{ tag: 'a' }], nested: {} });
  });

  it('leaves undeclared keys for the schema phase to judge', () => {
    expect(dropNullOptionalProperties({ query: 'q', extra: null }, schema)).toEqual({ query: 'q', extra: null });
  });

  it('does not mutate its input', () => {
    const args = { query: 'q', cursor: null };
    dropNullOptionalProperties(args, schema);
    expect(args).toEqual({ query: 'q', cursor: null });
  });
});
