import type { AnyCompiledRule } from '../compiled-rule-set';
import type { EndCheck, ExitRequirement, PrerequisiteSource, Recorder, ToolCheck } from '../engine/rule-index-types';

/** Which per-tool array of the state a slot is asked for, by the rule at `position`. */
export interface SlotRequest {
  readonly scope: 'run' | 'session';
  readonly position: number;
}

/**
 * What a kind tells the engine when a rule set is indexed (once per rule set): the per-tool flags and
 * counters it reads, and the checks and recorders that apply to which tools. The engine then runs, on
 * each call, only what applies to that tool: nothing scans every rule.
 */
export interface IndexBuilder {
  /**
   * Keep a flag of whether `tool` completed in the run or the session (read it with `isDone`). Slots go
   * in the order of the rules' positions, so the state's layout follows the rule set, not the kinds.
   */
  trackDone(tool: string, slot: SlotRequest): void;
  /** Count the attempts of `tool` in the run or the session (read them with `attemptsOf`). */
  countAttempts(tool: string, slot: SlotRequest): void;
  /** A check of calls of `tool`. */
  checkTool(tool: string, check: ToolCheck): void;
  /** A check of calls of every tool. */
  checkEveryTool(check: ToolCheck): void;
  /** A check of calls of every tool right after `tool` completed (the last completed call of the run). */
  checkAfter(tool: string, check: ToolCheck): void;
  /** A check of a text answer right after `tool` completed. */
  checkEndAfter(tool: string, check: EndCheck): void;
  /** A check of every text answer. */
  checkEveryEnd(check: EndCheck): void;
  /** What to record when a call of `tool` completes. */
  recordCompleted(tool: string, recorder: Recorder): void;
  /** What to record when any call completes. */
  recordEveryCompleted(recorder: Recorder): void;
  /** Where prerequisites of `tool` come from, for `callFirst`. */
  prerequisites(tool: string, source: PrerequisiteSource): void;
  /** A tool that must complete in each run before the run may end (a terminal tool does not end it before). */
  requireBeforeExit(requirement: ExitRequirement): void;
  /** Calls of `tool` wait for a human's decision. */
  requireApproval(tool: string, rule: AnyCompiledRule): void;
  /** Recording a call of `tool` reads its result (the session keeps the whole result for the rules). */
  readsOutput(tool: string): void;
  /** A call of `earlier` may change the verdict on a later call of `later` in the same response. */
  affects(earlier: string, later: string): void;
  /** A call of `tool` may change the verdict on any later call of the same response. */
  affectsAll(tool: string): void;
  /** The verdict on a call of `tool` may depend on any earlier call of the same response. */
  dependsOnAll(tool: string): void;
  /** Every call may depend on every earlier call of the same response. */
  alwaysDependent(): void;
}
