import type { CompiledRuleOf } from '../compiled-rule-set';
import type { EvaluationContext } from './evaluation-context';
import { isDone } from './evaluation-context';
import { toolRules } from './rule-index';

/** The prerequisites of `tool` that are not met yet, in rule order (`any` gates give their first tool). */
export function missingPrerequisites(context: EvaluationContext, tool: string): string[] {
  const rules = toolRules(context.index, tool);
  const missing: string[] = [];
  for (const i of rules.requires) {
    const rule = context.rules.rules[i] as CompiledRuleOf<'requires'>;
    missing.push(...missingOfRequires(context, rule));
  }
  for (const i of rules.preconditions) {
    const rule = context.rules.rules[i] as CompiledRuleOf<'precondition'>;
    const prior = rule.requires_prior_tool;
    if (prior !== undefined && !isDone(context, prior, 'session')) missing.push(prior);
  }
  return missing;
}

/** The tools a `requires` rule still waits for: all missing ones, or (mode `any`, none done) the first. */
export function missingOfRequires(context: EvaluationContext, rule: CompiledRuleOf<'requires'>): string[] {
  const missing = rule.after.filter((tool) => !isDone(context, tool, rule.scope));
  if (rule.mode === 'any') return missing.length === rule.after.length ? missing.slice(0, 1) : [];
  return missing;
}

/** {@link missingPrerequisites}, memoised for the context's state. */
function missingOf(context: EvaluationContext, tool: string): readonly string[] {
  let missing = context.chains.get(tool);
  if (missing === undefined) {
    missing = missingPrerequisites(context, tool);
    context.chains.set(tool, missing);
  }
  return missing;
}

function visit(context: EvaluationContext, tool: string, seen: Set<string>, order: string[]): void {
  if (seen.has(tool)) return;
  seen.add(tool);
  for (const prerequisite of missingOf(context, tool)) visit(context, prerequisite, seen, order);
  order.push(tool);
}

/**
 * The tools to call before `tools`, earliest first: each one's own missing prerequisites come before it,
 * transitively (A requires B, B requires C, nothing called: for [B] this gives [C, B]). `exclude` (the
 * tool being called) is left out. Work is proportional to the prerequisites visited.
 */
export function callFirst(context: EvaluationContext, tools: readonly string[], exclude: string): string[] {
  const order: string[] = [];
  const seen = new Set<string>([exclude]);
  for (const tool of tools) visit(context, tool, seen, order);
  return order;
}
