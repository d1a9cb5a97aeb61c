import { slotValue } from '../slot-array';
import type { EvaluationContext } from './rule-index-types';

/** Attempts of `tool` so far in a scope (0 for a tool no rule asked to count, `countAttempts` at index time). */
export function attemptsOf(context: EvaluationContext, tool: string, scope: 'run' | 'session'): number {
  const slot = (scope === 'run' ? context.index.attemptsRunSlot : context.index.attemptsSessionSlot).get(tool);
  if (slot === undefined) return 0;
  return slotValue(scope === 'run' ? context.state.attemptsRun : context.state.attemptsSession, slot);
}
