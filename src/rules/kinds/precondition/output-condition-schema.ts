import type { z } from 'zod';
import type { Zod } from '../common-rule-fields';

/** The schema of one condition on a prior tool's output: `{path, equals | exists | gte | lte}`, all given must hold. */
export function outputConditionSchema(zod: Zod) {
  return zod
    .object({
      path: zod.string().min(1),
      equals: zod.unknown().optional(),
      exists: zod.boolean().optional(),
      gte: zod.number().optional(),
      lte: zod.number().optional(),
    })
    .strict()
    .refine((c) => 'equals' in c || c.exists !== undefined || c.gte !== undefined || c.lte !== undefined, {
      message: 'an output condition needs one of equals, exists, gte, lte',
    });
}

/** One `with_output` condition. */
export type OutputCondition = z.output<ReturnType<typeof outputConditionSchema>>;
