import type { Capture, CaptureTable } from './capture-table';
import type { SlotArray } from './slot-array';

export type { Capture };

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

/** The state of one orchestration (AgentDock steps). */
export interface OrchestrationState {
  /** Position of the active step in the orchestration's steps, or `null` when none is active. */
  readonly active: number | null;
  /** Position in the active step's sequence. */
  readonly position: number;
  /** For each step, 1 when its message conditions hold for the latest user message. */
  readonly messageOk: readonly number[];
}

/**
 * Everything the rules remember about a session: plain JSON, bounded in size (per-tool counters and
 * flags, sequence positions, captured output verdicts, bound resources), never a history of calls.
 * Produced and advanced only by the engine's functions; never mutated.
 */
export interface RuleState {
  readonly version: 1;
  /** Runs started in the session (a user message starts one). */
  readonly run: number;
  /** Turns (model responses) begun in the session. */
  readonly turn: number;
  /** Turns begun in the current run. */
  readonly runTurns: number;
  readonly ended: RunEnd | null;
  /** Index of the terminal rule that ended the run, when `ended` is `terminal`. */
  readonly endedBy: number | null;
  /** Completed calls in the current run. */
  readonly runCompleted: number;
  /** Completed calls in the session. */
  readonly completed: number;
  readonly last: LastCompleted | null;
  /** Attempts per tool with a run-scoped `max_count`, by slot. */
  readonly attemptsRun: SlotArray;
  /** Attempts per tool with a session-scoped `max_count`, by slot. */
  readonly attemptsSession: SlotArray;
  /** 1 per tool completed in this run, for tools some run-scoped rule waits for. */
  readonly doneRun: SlotArray;
  /** 1 per tool completed in the session, for tools some session-scoped rule waits for. */
  readonly doneSession: SlotArray;
  /** Per forbiddable tool: 0, or 1 + the index of the `forbids_after` rule that forbade it. */
  readonly forbidden: SlotArray;
  /** Position of each `sequence` rule. */
  readonly sequences: readonly number[];
  /** Per capturing precondition: the latest verdict on its prior tool's output, per bound resource. */
  readonly captures: readonly CaptureTable[];
  readonly orchestrations: readonly OrchestrationState[];
  /** The last completed tools, oldest first, only as many as `sequence_match` conditions need. */
  readonly recent: readonly string[];
}

/** How many resource values a precondition remembers; older ones are forgotten (the check fails closed). */
export const maxBoundResources = 100;
