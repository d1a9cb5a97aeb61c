import type { z } from 'zod';
import { zod } from './zod-on-first-use';
import type { CompiledRule, CompiledRuleSet } from './compiled-rule-set';
import { loadTimeChecks } from './compile/load-time-checks';
import { registeredRuleKinds } from './kinds/registered-rule-kinds';
import { buildKindSchemas } from './model/rule-body-schema';
import type { KindSchema } from './kinds/common-rule-fields';

/**
 * Builds the schema of a compiled rule set as data (the `rules` of a session input): the format,
 * version and shape that `compileRuleSet` produces. Every orchestration lists indices of `step`
 * rules, and every `step` rule belongs to one orchestration. A new one each call (the start input's
 * check in a workflow builds it, uses it once and lets it go).
 */
export function buildCompiledRuleSetSchema() {
  const z = zod();
  /** Where a compiled rule came from (see `RuleRef`). */
  const ruleRefSchema = z
    .strictObject({
      kind: z.enum([...registeredRuleKinds().map((kind) => kind.kind), 'builtin']),
      id: z.string(),
      file: z.string(),
      index: z.number().int(),
      path: z.string(),
      line: z.number().int().positive().optional(),
    })
    .meta({ id: 'RuleRef' });
  const [first, ...others] = buildKindSchemas();
  const withRef = [first, ...others].map((option) => option.extend({ ref: ruleRefSchema }));
  /** One compiled rule: a rule body of the unified model, defaults applied, plus its `ref`. */
  const compiledRuleSchema = z.discriminatedUnion(
    'kind',
    withRef as unknown as [KindSchema, ...KindSchema[]],
  ) as unknown as z.ZodType<CompiledRule>;
  return z
    .strictObject({
      format: z.literal('toolrail.compiled-rules'),
      version: z.literal(1),
      rules: z.array(compiledRuleSchema),
      orchestrations: z.array(z.strictObject({ file: z.string(), steps: z.array(z.number().int().min(0)) })),
      settings: z.strictObject({
        onEmpty: z.enum(['end-run', 'allow-all']),
        maxTurnsPerRun: z.number().int().positive(),
      }),
      catalog: z.array(z.string()).nullable(),
    })
    .superRefine(checkOrchestrationSteps);
}

/** Every orchestration lists indices of `step` rules, and every `step` rule belongs to one orchestration. */
function checkOrchestrationSteps(
  set: { rules: readonly { kind: string }[]; orchestrations: readonly { steps: readonly number[] }[] },
  context: z.RefinementCtx,
): void {
  const owners = new Map<number, number>();
  set.orchestrations.forEach(({ steps }, orchestration) => {
    steps.forEach((index, position) => {
      const path = ['orchestrations', orchestration, 'steps', position];
      if (set.rules[index]?.kind !== 'step') {
        context.addIssue({ code: 'custom', path, message: `rules[${index}] is not a step rule` });
      } else if (owners.has(index)) {
        context.addIssue({ code: 'custom', path, message: `rules[${index}] is listed by two orchestrations` });
      } else owners.set(index, orchestration);
    });
  });
  set.rules.forEach((rule, index) => {
    if (rule.kind === 'step' && !owners.has(index))
      context.addIssue({ code: 'custom', path: ['rules', index], message: 'a step rule no orchestration lists' });
  });
}

/** A problem with a compiled rule set given as data: where (a path in the set) and what. */
export interface CompiledRuleSetProblem {
  readonly path: (string | number)[];
  readonly problem: string;
  readonly fix?: string;
}

/**
 * The load-time checks `compileRuleSet` runs, on a compiled rule set given as data (one not made by
 * `compileRuleSet` may break them): each error as a problem at the rule it is about.
 */
export function compiledRuleSetErrors(rules: CompiledRuleSet): CompiledRuleSetProblem[] {
  return loadTimeChecks(rules.rules, rules.catalog)
    .filter((diagnostic) => diagnostic.severity === 'error')
    .map((diagnostic) => {
      const index = diagnostic.rule === undefined ? -1 : rules.rules.findIndex((rule) => rule.ref === diagnostic.rule);
      return { path: index >= 0 ? ['rules', index] : ['rules'], problem: diagnostic.problem, fix: diagnostic.fix };
    });
}
