import type { PreparedCall, ToolErrorOutcome } from '../dispatch';
import type { CarriedTurn } from './session-input';
import type { DispatchedCall } from './session-events';

/** A model response whose calls are being dispatched: what is still to run, and what is settled. */
export interface TurnInProgress {
  /** 0-based index of the turn in the session (part of each call's idempotency key). */
  readonly turnIndex: number;
  /** Calls without an outcome yet, in call order (a prepared call, or an error it already got). */
  readonly remaining: readonly (PreparedCall | ToolErrorOutcome)[];
  /** Outcomes known but not yet in the conversation, in call order. */
  readonly settled: readonly DispatchedCall[];
  /** Batches run so far in this turn (in this workflow run). */
  readonly batches: number;
}

/** The turn of a model response's calls. */
export function beginTurnInProgress({
  turnIndex,
  remaining,
}: {
  turnIndex: number;
  remaining: readonly (PreparedCall | ToolErrorOutcome)[];
}): TurnInProgress {
  return settleErrors({ turnIndex, remaining, settled: [], batches: 0 });
}

/**
 * The turn once `outcomes` (of some of its calls) are known: those calls move from the remaining
 * to the settled ones, in call order; a batch more has run.
 */
export function settleTurnCalls(turn: TurnInProgress, outcomes: readonly DispatchedCall[]): TurnInProgress {
  const byId = new Map(outcomes.map((dispatched) => [dispatched.outcome.callId, dispatched]));
  const settled = turn.remaining.flatMap((call) => {
    const dispatched = byId.get(call.callId);
    if (dispatched === undefined) return [];
    return [{ outcome: dispatched.outcome, ...(dispatched.message ? { message: dispatched.message } : {}) }];
  });
  const remaining = turn.remaining.filter((call) => !byId.has(call.callId));
  return settleErrors({ ...turn, remaining, settled: [...turn.settled, ...settled], batches: turn.batches + 1 });
}

/** What continue-as-new carries of a turn in progress: its calls still to come. */
export function carriedTurn({ turnIndex, remaining }: TurnInProgress): CarriedTurn {
  return { turnIndex, remaining: [...remaining] };
}

/** Errors the calls got before dispatch (unknown tool, bad input) settle as soon as every call before them has. */
function settleErrors(turn: TurnInProgress): TurnInProgress {
  let first = 0;
  while (turn.remaining[first]?.type === 'tool-error') first += 1;
  if (first === 0) return turn;
  const errors = turn.remaining.slice(0, first) as ToolErrorOutcome[];
  return {
    ...turn,
    remaining: turn.remaining.slice(first),
    settled: [...turn.settled, ...errors.map((outcome) => ({ outcome }))],
  };
}
