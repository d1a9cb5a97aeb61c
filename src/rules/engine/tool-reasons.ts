import type { Reason } from '../reason';
import { checkDefault, checkMaxCount } from './check-limits';
import { checkAfterLast, checkParents } from './check-last-call';
import { checkPreconditions } from './check-preconditions';
import { checkRequires } from './check-requires';
import { checkForbidden, checkInit } from './check-run-gates';
import { checkSequences } from './check-sequences';
import { checkSteps } from './check-steps';
import type { EvaluationContext } from './evaluation-context';
import { toolRules } from './rule-index';

/**
 * Every reason the rules give against calling `tool` now with `args` (or with any arguments, at
 * narrowing), for a tool in the catalog of a run that goes on. Empty means allowed. The work is
 * proportional to the rules that mention the tool, plus the run-wide gates (init, sequences, steps).
 */
export function toolReasons(context: EvaluationContext, tool: string, args: unknown): Reason[] {
  const out: Reason[] = [];
  const own = toolRules(context.index, tool);
  checkForbidden(context, tool, out);
  checkInit(context, tool, out);
  checkAfterLast(context, tool, out);
  checkParents(context, own, out);
  checkSequences(context, tool, out);
  checkSteps(context, tool, out);
  checkRequires(context, tool, own, out);
  checkPreconditions(context, tool, own, args, out);
  checkMaxCount(context, tool, own, out);
  checkDefault(context, tool, out);
  return out;
}
