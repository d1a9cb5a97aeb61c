import type { CheckEndResult, NarrowResult, ValidateResult } from '../rules';
import type { ShadowVerdict } from './shadow-verdict';

/** The rule engine's result at one step of a session: a turn's narrowing, a call's validation, an end check. */
export type ShadowStep =
  | { narrowed: NarrowResult }
  | { call: { callId: string; tool: string }; verdict: ValidateResult }
  | { end: CheckEndResult };

/**
 * What shadow rules would have done at one step, from the engine's result: the visible tools they
 * would hide, the allowed call they would refuse or put up for approval, the ending answer they would
 * refuse; `undefined` when they would have done nothing there (or the step itself hid, refused or
 * kept the run going, which says more).
 */
export function shadowVerdictOf(step: ShadowStep): ShadowVerdict | undefined {
  if ('narrowed' in step) {
    const { shadowHidden, shadowEnded } = step.narrowed;
    if (shadowHidden === undefined || shadowHidden.length === 0) return undefined;
    return { kind: 'hidden', tools: shadowHidden, ...(shadowEnded === undefined ? {} : { ended: shadowEnded }) };
  }
  if ('end' in step) {
    const { endsRun, shadowRefused } = step.end;
    return endsRun && shadowRefused?.length ? { kind: 'end', reasons: shadowRefused } : undefined;
  }
  const { call, verdict } = step;
  if (verdict.verdict !== 'allowed') return undefined;
  if (verdict.shadowRefused?.length) return { kind: 'refused', ...call, reasons: verdict.shadowRefused };
  return verdict.shadowRequiresApproval ? { kind: 'approval', ...call, reasons: [] } : undefined;
}
