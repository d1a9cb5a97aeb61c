import { matchesAnyToolPattern } from '../../paths/tool-pattern';
import type { RuleOfKind } from '../rule-kind-module';

/** Whether the step's lists let `tool` through: `allowed` (when non-empty) AND NOT `denied`. */
export function stepListsAllow(step: RuleOfKind<'step'>, tool: string): boolean {
  if (step.allowed !== undefined && step.allowed.length > 0 && !matchesAnyToolPattern(step.allowed, tool)) return false;
  return !(step.denied !== undefined && matchesAnyToolPattern(step.denied, tool));
}
