import type { z } from 'zod';
import { zod } from '../zod-on-first-use';

// Built by functions, not at module evaluation: the workflow bundle includes this module (the
// start input's check uses it), and every workflow run evaluates the bundle's modules anew.

/** One condition on a prior tool's output: `{path, equals | exists | gte | lte}`, all given ones must hold. */
export function buildOutputConditionSchema() {
  const z = zod();
  return z
    .object({
      path: z.string().min(1),
      equals: z.unknown().optional(),
      exists: z.boolean().optional(),
      gte: z.number().optional(),
      lte: z.number().optional(),
    })
    .strict()
    .refine((c) => 'equals' in c || c.exists !== undefined || c.gte !== undefined || c.lte !== undefined, {
      message: 'an output condition needs one of equals, exists, gte, lte',
    });
}

/**
 * Builds the schema of the body of every rule kind of the unified model, discriminated by `kind`
 * (a new one each call: {@link ruleBodySchema} is the one kept).
 */
export function buildRuleBodySchema() {
  const z = zod();
  /** A tool name as written in a rule: a non-empty string. */
  const toolNameSchema = z.string().min(1, 'a tool name must not be empty');
  /** A sequence position: one tool, or a list of alternatives (any one of them advances it). */
  const positionSchema = z.union([
    toolNameSchema,
    z.array(toolNameSchema).min(1, 'a list of alternatives must name at least one tool'),
  ]);
  const scopeRunSession = z.enum(['run', 'session']);
  /** A condition of an orchestration step. */
  const stepConditionSchema = z
    .object({
      type: z.enum(['message_regex', 'message_contains', 'message_starts_with', 'tool_used', 'sequence_match']),
      value: z.string().optional(),
      description: z.string().optional(),
    })
    .strict();
  const base = { id: z.string().min(1).optional(), description: z.string().optional() };
  const toolRule = { ...base, tool: toolNameSchema };
  const toolList = z.array(toolNameSchema);
  return z.discriminatedUnion('kind', [
    z
      .object({
        ...toolRule,
        kind: z.literal('requires'),
        after: toolList.min(1, 'list at least one tool in "after"'),
        mode: z.enum(['all', 'any']).default('all'),
        scope: scopeRunSession.default('session'),
      })
      .strict(),
    z
      .object({
        ...toolRule,
        kind: z.literal('forbids_after'),
        forbids: toolList.min(1, 'list at least one tool in "forbids"'),
      })
      .strict(),
    z
      .object({
        ...toolRule,
        kind: z.literal('max_count'),
        limit: z.number().int().min(0),
        scope: scopeRunSession.default('run'),
      })
      .strict(),
    z
      .object({
        ...toolRule,
        kind: z.literal('precondition'),
        requires_prior_tool: toolNameSchema.optional(),
        with_output: z.array(buildOutputConditionSchema()).optional(),
        resource: z
          .object({ bind_from: z.literal('arguments'), path: z.string().min(1) })
          .strict()
          .optional(),
        requires_step_count: z
          .object({ gte: z.number().int().min(0) })
          .strict()
          .optional(),
      })
      .strict(),
    z
      .object({
        ...base,
        kind: z.literal('sequence'),
        positions: z.array(positionSchema).min(1, 'a sequence needs at least one position'),
        scope: scopeRunSession.default('run'),
      })
      .strict(),
    z
      .object({
        ...base,
        kind: z.literal('step'),
        name: z.string().min(1),
        conditions: z.array(stepConditionSchema).default([]),
        allowed: toolList.optional(),
        denied: toolList.optional(),
        sequence: z.array(positionSchema).optional(),
        default: z.boolean().default(false),
      })
      .strict(),
    z.object({ ...toolRule, kind: z.literal('init') }).strict(),
    z
      .object({ ...toolRule, kind: z.literal('child'), children: toolList.min(1, 'list at least one child tool') })
      .strict(),
    z
      .object({ ...toolRule, kind: z.literal('parent'), children: toolList.min(1, 'list at least one child tool') })
      .strict(),
    z
      .object({
        ...toolRule,
        kind: z.literal('conditional'),
        mapping: z
          .array(z.object({ when: z.string(), child: toolNameSchema }).strict())
          .min(1, 'a conditional rule needs at least one mapping entry'),
        default_child: toolNameSchema.optional(),
        strict: z.boolean().default(false),
        path: z.string().min(1).optional(),
      })
      .strict(),
    z.object({ ...toolRule, kind: z.literal('terminal') }).strict(),
    z.object({ ...toolRule, kind: z.literal('continue') }).strict(),
    z.object({ ...toolRule, kind: z.literal('required_before_exit') }).strict(),
    z.object({ ...toolRule, kind: z.literal('requires_approval') }).strict(),
    z
      .object({
        ...base,
        kind: z.literal('default'),
        policy: z.enum(['allow', 'block']),
        known: toolList.optional(),
      })
      .strict(),
  ]);
}

let sharedRuleBodySchema: ReturnType<typeof buildRuleBodySchema> | undefined;

/** The rule body schema ({@link buildRuleBodySchema}), built on first use and kept. */
export function ruleBodySchema(): ReturnType<typeof buildRuleBodySchema> {
  return (sharedRuleBodySchema ??= buildRuleBodySchema());
}

/** A rule's body as the unified model holds it (defaults applied). */
export type RuleBody = z.output<ReturnType<typeof buildRuleBodySchema>>;
