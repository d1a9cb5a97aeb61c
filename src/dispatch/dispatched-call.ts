import type { MessageRef } from '../session';
import type { PreparedCall } from './prepared-call';
import type { ToolErrorOutcome, ToolOutcome } from './tool-outcome';

/** A call's outcome, and its result message when the activity that ran it already stored it. */
export interface DispatchedCall {
  outcome: ToolOutcome;
  message?: MessageRef;
}

/** The calls of a response whose outcomes are known, in call order, and those still to come. */
export interface SettledCalls {
  settled: DispatchedCall[];
  remaining: (PreparedCall | ToolErrorOutcome)[];
}
