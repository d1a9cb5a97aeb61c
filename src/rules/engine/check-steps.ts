import type { CompiledRuleOf } from '../compiled-rule-set';
import { matchesAnyToolPattern } from '../paths/tool-pattern';
import type { Reason } from '../reason';
import { ReasonCode } from '../reason-code';
import type { EvaluationContext } from './evaluation-context';
import { listText } from './list-text';
import { makeReason } from './make-reason';
import { positionTools } from './rule-index';

/** Whether the step's lists let `tool` through: `allowed` (when non-empty) AND NOT `denied`. */
export function stepListsAllow(step: CompiledRuleOf<'step'>, tool: string): boolean {
  if (step.allowed !== undefined && step.allowed.length > 0 && !matchesAnyToolPattern(step.allowed, tool)) return false;
  return !(step.denied !== undefined && matchesAnyToolPattern(step.denied, tool));
}

/**
 * The active step of each orchestration: its lists (`not_in_step`) and, while unfinished, its sequence
 * (`sequence_expected`).
 */
export function checkSteps(context: EvaluationContext, tool: string, out: Reason[]): void {
  const { index, state, rules } = context;
  for (let o = 0; o < index.orchestrations.length; o++) {
    const orchestration = index.orchestrations[o];
    const active = state.orchestrations[o]?.active ?? null;
    if (orchestration === undefined || active === null) continue;
    const step = rules.rules[orchestration.steps[active] ?? 0] as CompiledRuleOf<'step'>;
    if (!stepListsAllow(step, tool)) {
      const allowed = step.allowed && step.allowed.length > 0 ? ` Use ${listText(step.allowed, 'or')}.` : '';
      out.push(makeReason(ReasonCode.notInStep, step, `${tool} is not available in step "${step.name}".${allowed}`));
    }
    const position = state.orchestrations[o]?.position ?? 0;
    const expected = step.sequence?.[position];
    if (expected === undefined) continue;
    const names = positionTools(expected);
    if (names.includes(tool)) continue;
    out.push(
      makeReason(
        ReasonCode.sequenceExpected,
        step,
        `Step "${step.name}" follows a sequence (${position + 1} of ${step.sequence?.length ?? 0}): call ${listText(names, 'or')} next.`,
        names.slice(0, 1),
      ),
    );
  }
}
