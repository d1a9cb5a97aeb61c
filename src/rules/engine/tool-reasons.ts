import type { Reason } from '../reason';
import type { EvaluationContext, ToolCheck } from './rule-index-types';

const none: readonly ToolCheck[] = [];

function precedes(a: ToolCheck, b: ToolCheck): boolean {
  return a.order < b.order || (a.order === b.order && a.position <= b.position);
}

/**
 * Every reason the rules give against calling `tool` now with `args` (or with any arguments, at
 * narrowing), for a tool in the catalog of a run that goes on, in reason order; empty means allowed.
 * Runs only the checks the kinds registered for this tool, for every tool, and for calls right after
 * the last completed tool: the work is proportional to the rules that apply, not to the rule set.
 */
export function toolReasons(context: EvaluationContext, tool: string, args: unknown): Reason[] {
  const out: Reason[] = [];
  const { index, state } = context;
  const own = index.toolChecks.get(tool) ?? index.everyToolChecks;
  const after = state.last === null ? none : (index.afterChecks.get(state.last.tool) ?? none);
  if (after.length === 0) {
    for (const check of own) check.check(context, tool, args, out);
    return out;
  }
  let i = 0;
  let j = 0;
  while (i < own.length || j < after.length) {
    const mine = own[i];
    const following = after[j];
    if (mine !== undefined && (following === undefined || precedes(mine, following))) {
      mine.check(context, tool, args, out);
      i++;
    } else if (following !== undefined) {
      following.check(context, tool, args, out);
      j++;
    }
  }
  return out;
}
