import type { z } from 'zod';

/** zod's namespace, as the registry hands it to each kind's schema (loaded on first use). */
export type Zod = typeof z;

/**
 * The schema parts kinds share: every rule's own fields (`id`, `description`, `enforcement`), a tool name, a
 * list of tools, a sequence position (one tool, or a list of alternatives) and a `run`/`session` scope.
 * Built with each rule-body schema, never when a module is evaluated (the workflow bundle holds these
 * modules, and a worker that never checks a rule body never loads zod).
 */
export function buildCommonRuleFields(zod: Zod) {
  /** A tool name as written in a rule: a non-empty string. */
  const toolName = zod.string().min(1, 'a tool name must not be empty');
  const base = {
    id: zod.string().min(1).optional(),
    description: zod.string().optional(),
    enforcement: zod
      .enum(['enforce', 'shadow'])
      .describe('shadow: the rule hides and refuses nothing; the engine reports what it would have (default enforce)')
      .optional(),
  };
  return {
    base,
    /** `base` and the one tool the rule is about. */
    toolRule: { ...base, tool: toolName },
    toolName,
    toolList: zod.array(toolName),
    position: zod.union([toolName, zod.array(toolName).min(1, 'a list of alternatives must name at least one tool')]),
    scope: zod.enum(['run', 'session']),
  };
}

/** What {@link buildCommonRuleFields} gives. */
export type CommonRuleFields = ReturnType<typeof buildCommonRuleFields>;

/** The schema of one kind's rule body: a strict object with a literal `kind`. */
export type KindSchema = z.ZodObject<z.core.$ZodLooseShape, z.core.$ZodObjectConfig>;
