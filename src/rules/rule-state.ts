import type { KindStateFields } from './rule-kind-types';
import type { SlotArray } from './slot-array';

/** Why the current run ended, if it did. */
export type RunEnd = 'terminal' | 'answered' | 'no_tool_allowed' | 'turn_limit';

/** The outcome of one `conditional` rule for the call right after its tool. */
export interface ConditionalDecision {
  /** Index of the conditional rule. */
  readonly rule: number;
  /** Tools allowed next: one child, none (strict, no match), or `null` for no constraint. */
  readonly allow: readonly string[] | null;
  /** The mapping key that matched, or `null` (default child, or no match). */
  readonly matched: string | null;
}

/** The last completed call of the run, for `child`, `parent`, `conditional` and `continue` rules. */
export interface LastCompleted {
  readonly tool: string;
  readonly conditional: readonly ConditionalDecision[];
}

/**
 * The part of the rule state every kind shares: runs, turns, the run's end, the last completed call,
 * and per-tool attempt counts and completion flags (kept only for tools some rule tracks, by slot).
 */
export interface CoreRuleState {
  readonly version: 1;
  /** Runs started in the session (a user message starts one). */
  readonly run: number;
  /** Turns (model responses) begun in the session. */
  readonly turn: number;
  /** Turns begun in the current run. */
  readonly runTurns: number;
  readonly ended: RunEnd | null;
  /**
   * Index of the terminal rule that ended the run, when `ended` is `terminal`; with `ended` null, of a
   * shadow terminal rule that would have ended it.
   */
  readonly endedBy: number | null;
  /** Completed calls in the current run. */
  readonly runCompleted: number;
  /** Completed calls in the session. */
  readonly completed: number;
  readonly last: LastCompleted | null;
  /** Attempts per tool some rule counts in the run, by slot. */
  readonly attemptsRun: SlotArray;
  /** Attempts per tool some rule counts in the session, by slot. */
  readonly attemptsSession: SlotArray;
  /** 1 per tool completed in this run, for tools some run-scoped rule waits for. */
  readonly doneRun: SlotArray;
  /** 1 per tool completed in the session, for tools some session-scoped rule waits for. */
  readonly doneSession: SlotArray;
}

/**
 * Everything the rules remember about a session: plain JSON, bounded in size (per-tool counters and
 * flags, sequence positions, captured output verdicts, bound resources), never a history of calls.
 * The shared fields, then the fields each kind adds. Produced and advanced only by the engine's
 * functions; never mutated.
 */
export type RuleState = CoreRuleState & KindStateFields;

/** A rule state being built by one engine step: a fresh copy whose fields may be replaced (never mutated). */
export type RuleStateDraft = { -readonly [K in keyof RuleState]: RuleState[K] };

/** How many resource values a precondition remembers; older ones are forgotten (the check fails closed). */
export const maxBoundResources = 100;
