import { z } from 'zod';
import type { JsonObject } from '../../dispatch';
import { flattenJsonSchema } from './flatten-json-schema';
import { isJsonObject } from './is-json-object';
import { SchemaFlatteningError } from './schema-flattening-error';

/**
 * The portable JSON Schema of a zod input schema: what the model is asked to send (`io: 'input'`),
 * with reused parts inlined, recursion refused, and everything {@link flattenJsonSchema} does. A root
 * object that declares no policy for unknown keys gets `additionalProperties: false`, because the
 * schema phase refuses unknown top-level arguments.
 *
 * @throws SchemaFlatteningError for recursive, unrepresentable or non-object schemas.
 */
export function toPortableJsonSchema(schema: z.ZodType): JsonObject {
  let generated: unknown;
  try {
    generated = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io: 'input',
      reused: 'inline',
      cycles: 'throw',
      unrepresentable: 'throw',
    });
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new SchemaFlatteningError({ at: '#', problem: `zod cannot express it as JSON Schema: ${message}` });
  }
  const json: unknown = JSON.parse(JSON.stringify(generated));
  if (!isJsonObject(json)) {
    throw new SchemaFlatteningError({ at: '#', problem: 'the root must be a schema of `type: "object"`' });
  }
  const flat = flattenJsonSchema(json);
  return 'additionalProperties' in flat ? flat : { ...flat, additionalProperties: false };
}
