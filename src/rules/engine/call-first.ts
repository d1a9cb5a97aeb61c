import type { EvaluationContext } from './rule-index-types';

/**
 * The prerequisites of `tool` not met yet, in order (the kinds' sources, e.g. requires rules before
 * preconditions, each in rule order). With `shadow` false, sources of shadow rules are left out.
 */
function missingPrerequisites(context: EvaluationContext, tool: string, shadow: boolean): string[] {
  const sources = context.index.prerequisites.get(tool);
  const missing: string[] = [];
  if (sources === undefined) return missing;
  for (const source of sources) if (shadow || !source.shadow) missing.push(...source.missing(context));
  return missing;
}

/** {@link missingPrerequisites}, memoised for the context's state. */
function missingOf(context: EvaluationContext, tool: string, shadow: boolean): readonly string[] {
  const key = shadow ? `\u0000shadow:${tool}` : tool;
  let missing = context.chains.get(key);
  if (missing === undefined) {
    missing = missingPrerequisites(context, tool, shadow);
    context.chains.set(key, missing);
  }
  return missing;
}

function visit(context: EvaluationContext, tool: string, shadow: boolean, seen: Set<string>, order: string[]): void {
  if (seen.has(tool)) return;
  seen.add(tool);
  for (const prerequisite of missingOf(context, tool, shadow)) visit(context, prerequisite, shadow, seen, order);
  order.push(tool);
}

/**
 * The tools to call before `tools`, earliest first: each one's own missing prerequisites come before it,
 * transitively (A requires B, B requires C, nothing called: for [B] this gives [C, B]). `exclude` (the
 * tool being called) is left out. For the reason of a shadow rule (`shadow`), the prerequisites of
 * shadow rules count too; for an enforced one, only those of enforced rules. Work is proportional to
 * the prerequisites visited.
 */
export function callFirst(
  context: EvaluationContext,
  { tools, exclude, shadow = false }: { tools: readonly string[]; exclude: string; shadow?: boolean },
): string[] {
  const order: string[] = [];
  const seen = new Set<string>([exclude]);
  for (const tool of tools) visit(context, tool, shadow, seen, order);
  return order;
}
