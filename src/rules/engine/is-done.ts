import type { CoreRuleState } from '../rule-state';
import { slotValue } from '../slot-array';
import type { RuleIndex } from './rule-index-types';

/**
 * Whether `tool` completed in the run (`scope: run`) or the session, per the state's done flags; false
 * for a tool no rule asked to track (`trackDone` at index time).
 */
export function isDone(
  view: { readonly index: RuleIndex; readonly state: CoreRuleState },
  tool: string,
  scope: 'run' | 'session',
): boolean {
  const slot = (scope === 'run' ? view.index.doneRunSlot : view.index.doneSessionSlot).get(tool);
  if (slot === undefined) return false;
  return slotValue(scope === 'run' ? view.state.doneRun : view.state.doneSession, slot) === 1;
}
