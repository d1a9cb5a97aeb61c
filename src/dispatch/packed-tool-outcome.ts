import { withUsual, withoutUsual } from '../kernel';
import type { ToolErrorOutcome, ToolOutcome, ToolResultOutcome } from './tool-outcome';

/**
 * A call's outcome as the tool activity returns it through history: `callId` and `toolName` are
 * left out when they are those of the call the workflow scheduled (it fills them back in), and a
 * result's `output` when it is `null` (the output stayed in the content store). An outcome in its
 * full form (as earlier versions returned it) unpacks to itself.
 */
export type PackedToolOutcome =
  | (Pick<ToolResultOutcome, 'type'> & Partial<ToolResultOutcome>)
  | (Pick<ToolErrorOutcome, 'type'> & Partial<ToolErrorOutcome>);

/** The call an outcome belongs to: what a packed outcome leaves out. */
type OutcomeCall = { readonly callId: string; readonly toolName: string };

/** `outcome` without what repeats `call`, and without a `null` output. */
export function packToolOutcome(outcome: ToolOutcome, call: OutcomeCall): PackedToolOutcome {
  return { type: outcome.type, ...withoutUsual(outcome, usualOutcome(outcome.type, call)) };
}

/** The full outcome of a packed one, of a call to `call` (a full outcome is returned as it is). */
export function unpackToolOutcome(packed: PackedToolOutcome, call: OutcomeCall): ToolOutcome {
  return withUsual<ToolOutcome>(packed, usualOutcome(packed.type, call));
}

/** What most outcomes of `call` hold, in the order outcomes are built (what is made of them reads as before). */
function usualOutcome(type: ToolOutcome['type'], { callId, toolName }: OutcomeCall): Partial<ToolOutcome> {
  return type === 'tool-result' ? { type, callId, toolName, output: null } : { type, callId, toolName };
}
