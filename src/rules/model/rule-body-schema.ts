import type { z } from 'zod';
import type { KindSchema } from '../kinds/common-rule-fields';
import { buildCommonRuleFields } from '../kinds/common-rule-fields';
import type { AnyRuleKind } from '../kinds/rule-kind-module';
import { registeredRuleKinds } from '../kinds/registered-rule-kinds';
import type { RuleBody } from '../rule-kind-types';
import { zod } from '../zod-on-first-use';

// Built by functions, not at module evaluation: the workflow bundle includes this module (the
// start input's check uses it), and a worker that never checks a start input never loads zod.

/** The schema of every registered kind's rule body, in the registry's order. */
export function buildKindSchemas(kinds: readonly AnyRuleKind[] = registeredRuleKinds()): [KindSchema, ...KindSchema[]] {
  const z = zod();
  const common = buildCommonRuleFields(z);
  return kinds.map((kind) => kind.schema(z, common)) as [KindSchema, ...KindSchema[]];
}

/**
 * Builds the schema of the body of every rule kind of the unified model, discriminated by `kind`
 * (a new one each call: {@link ruleBodySchema} is the one kept).
 */
export function buildRuleBodySchema(): z.ZodType<RuleBody> {
  return zod().discriminatedUnion('kind', buildKindSchemas()) as unknown as z.ZodType<RuleBody>;
}

let shared: { kinds: readonly AnyRuleKind[]; schema: z.ZodType<RuleBody> } | undefined;

/** The rule body schema ({@link buildRuleBodySchema}), built on first use and kept (until a kind is registered). */
export function ruleBodySchema(): z.ZodType<RuleBody> {
  const kinds = registeredRuleKinds();
  if (shared?.kinds !== kinds) shared = { kinds, schema: buildRuleBodySchema() };
  return shared.schema;
}
