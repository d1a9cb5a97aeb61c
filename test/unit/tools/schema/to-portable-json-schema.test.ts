import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SchemaFlatteningError } from '../../../../src/tools/schema/schema-flattening-error';
import { toPortableJsonSchema } from '../../../../src/tools/schema/to-portable-json-schema';
import { toStrictJsonSchema } from '../../../../src/tools/schema/to-strict-json-schema';

const Address = z.object({ street: z.string(), city: z.string().describe('City name') });

describe('toPortableJsonSchema', () => {
  it('keeps nested objects inline', () => {
    const schema = z.object({ order: z.object({ id: z.string(), shipTo: Address }) });
    expect(toPortableJsonSchema(schema)).toMatchInlineSnapshot(`
      {
        "additionalProperties": false,
        "properties": {
          "order": {
            "properties": {
              "id": {
                "type": "string",
              },
              "shipTo": {
                "properties": {
                  "city": {
                    "description": "City name",
                    "type": "string",
                  },
                  "street": {
                    "type": "string",
                  },
                },
                "required": [
                  "street",
                  "city",
                ],
                "type": "object",
              },
            },
            "required": [
              "id",
              "shipTo",
            ],
            "type": "object",
          },
        },
        "required": [
          "order",
        ],
        "type": "object",
      }
    `);
  });

  it('inlines a schema reused in two places', () => {
    const schema = z.object({ from: Address, to: Address });
    expect(toPortableJsonSchema(schema)).toMatchInlineSnapshot(`
      {
        "additionalProperties": false,
        "properties": {
          "from": {
            "properties": {
              "city": {
                "description": "City name",
                "type": "string",
              },
              "street": {
                "type": "string",
              },
            },
            "required": [
              "street",
              "city",
            ],
            "type": "object",
          },
          "to": {
            "properties": {
              "city": {
                "description": "City name",
                "type": "string",
              },
              "street": {
                "type": "string",
              },
            },
            "required": [
              "street",
              "city",
            ],
            "type": "object",
          },
        },
        "required": [
          "from",
          "to",
        ],
        "type": "object",
      }
    `);
  });

  it('inlines a schema registered with an id, which zod would emit as a $ref', () => {
    const Tagged = Address.meta({ id: 'Address', description: 'A postal address' });
    const schema = z.object({ from: Tagged, to: Tagged });
    const flat = toPortableJsonSchema(schema);
    z.globalRegistry.remove(Tagged);
    expect(JSON.stringify(flat)).not.toMatch(/\$ref|\$defs/);
    expect(flat).toMatchInlineSnapshot(`
      {
        "additionalProperties": false,
        "properties": {
          "from": {
            "description": "A postal address",
            "properties": {
              "city": {
                "description": "City name",
                "type": "string",
              },
              "street": {
                "type": "string",
              },
            },
            "required": [
              "street",
              "city",
            ],
            "type": "object",
          },
          "to": {
            "description": "A postal address",
            "properties": {
              "city": {
                "description": "City name",
                "type": "string",
              },
              "street": {
                "type": "string",
              },
            },
            "required": [
              "street",
              "city",
            ],
            "type": "object",
          },
        },
        "required": [
          "from",
          "to",
        ],
        "type": "object",
      }
    `);
  });

  it('leaves optional properties out of required and drops defaults from required', () => {
    const schema = z.object({
      query: z.string(),
      limit: z.number().int().min(1).max(100).default(10),
      cursor: z.string().optional(),
      note: z.string().nullable(),
    });
    expect(toPortableJsonSchema(schema)).toMatchInlineSnapshot(`
      {
        "additionalProperties": false,
        "properties": {
          "cursor": {
            "type": "string",
          },
          "limit": {
            "default": 10,
            "maximum": 100,
            "minimum": 1,
            "type": "integer",
          },
          "note": {
            "anyOf": [
              {
                "type": "string",
              },
              {
                "type": "null",
              },
            ],
          },
          "query": {
            "type": "string",
          },
        },
        "required": [
          "query",
          "note",
        ],
        "type": "object",
      }
    `);
  });

  it('turns unions into anyOf, literals into enums, and type lists into anyOf', () => {
    const schema = z.object({
      target: z.union([z.object({ path: z.string() }), z.object({ url: z.url() })]),
      action: z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('copy'), to: z.string() }),
        z.object({ kind: z.literal('delete') }),
      ]),
      id: z.union([z.string(), z.number()]),
      mode: z.enum(['fast', 'safe']),
    });
    const flat = toPortableJsonSchema(schema);
    expect(JSON.stringify(flat)).not.toMatch(/oneOf|const|"type":\[/);
    expect(flat).toMatchInlineSnapshot(`
      {
        "additionalProperties": false,
        "properties": {
          "action": {
            "anyOf": [
              {
                "properties": {
                  "kind": {
                    "enum": [
                      "copy",
                    ],
                    "type": "string",
                  },
                  "to": {
                    "type": "string",
                  },
                },
                "required": [
                  "kind",
                  "to",
                ],
                "type": "object",
              },
              {
                "properties": {
                  "kind": {
                    "enum": [
                      "delete",
                    ],
                    "type": "string",
                  },
                },
                "required": [
                  "kind",
                ],
                "type": "object",
              },
            ],
          },
          "id": {
            "anyOf": [
              {
                "type": "string",
              },
              {
                "type": "number",
              },
            ],
          },
          "mode": {
            "enum": [
              "fast",
              "safe",
            ],
            "type": "string",
          },
          "target": {
            "anyOf": [
              {
                "properties": {
                  "path": {
                    "type": "string",
                  },
                },
                "required": [
                  "path",
                ],
                "type": "object",
              },
              {
                "properties": {
                  "url": {
                    "format": "uri",
                    "type": "string",
                  },
                },
                "required": [
                  "url",
                ],
                "type": "object",
              },
            ],
          },
        },
        "required": [
          "target",
          "action",
          "id",
          "mode",
        ],
        "type": "object",
      }
    `);
  });

  it('keeps the policy of a loose root object', () => {
    expect(toPortableJsonSchema(z.looseObject({ a: z.string() }))['additionalProperties']).toEqual({});
  });

  it('refuses recursion', () => {
    const Category: z.ZodType = z.object({
      name: z.string(),
      get parent() {
        return Category.optional();
      },
    });
    expect(() => toPortableJsonSchema(z.object({ category: Category }))).toThrow(SchemaFlatteningError);
  });

  it('refuses a root that is not an object', () => {
    expect(() => toPortableJsonSchema(z.array(z.string()))).toThrow(SchemaFlatteningError);
    expect(() =>
      toPortableJsonSchema(
        z.discriminatedUnion('k', [z.object({ k: z.literal('a') }), z.object({ k: z.literal('b') })]),
      ),
    ).toThrow(/root may not use "anyOf"/);
  });
});

describe('toStrictJsonSchema', () => {
  it('requires every property, makes optional ones nullable and closes every object', () => {
    const schema = z.object({
      query: z.string().min(1).describe('What to look for'),
      filters: z.object({ tag: z.string().optional(), since: z.number().optional() }).optional(),
      limit: z.number().int().default(10),
    });
    expect(toStrictJsonSchema(toPortableJsonSchema(schema))).toMatchInlineSnapshot(`
      {
        "additionalProperties": false,
        "properties": {
          "filters": {
            "anyOf": [
              {
                "additionalProperties": false,
                "properties": {
                  "since": {
                    "anyOf": [
                      {
                        "type": "number",
                      },
                      {
                        "type": "null",
                      },
                    ],
                  },
                  "tag": {
                    "anyOf": [
                      {
                        "type": "string",
                      },
                      {
                        "type": "null",
                      },
                    ],
                  },
                },
                "required": [
                  "tag",
                  "since",
                ],
                "type": "object",
              },
              {
                "type": "null",
              },
            ],
          },
          "limit": {
            "anyOf": [
              {
                "maximum": 9007199254740991,
                "minimum": -9007199254740991,
                "type": "integer",
              },
              {
                "type": "null",
              },
            ],
          },
          "query": {
            "description": "What to look for",
            "type": "string",
          },
        },
        "required": [
          "query",
          "filters",
          "limit",
        ],
        "type": "object",
      }
    `);
  });

  it('has no strict form for records or loose objects', () => {
    expect(toStrictJsonSchema(toPortableJsonSchema(z.object({ labels: z.record(z.string(), z.string()) })))).toBeNull();
    expect(toStrictJsonSchema(toPortableJsonSchema(z.looseObject({ a: z.string() })))).toBeNull();
    expect(toStrictJsonSchema(toPortableJsonSchema(z.object({ anything: z.unknown() })))).toBeNull();
  });
});
