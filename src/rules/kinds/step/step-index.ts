import type { RuleOfKind } from '../rule-kind-module';

/** One orchestration's steps, in order, as the `step` kind indexes them. */
export interface OrchestrationIndex {
  readonly file: string;
  readonly steps: readonly RuleOfKind<'step'>[];
  /** Positions of the steps in the rule set. */
  readonly positions: readonly number[];
  /** Position (in `steps`) of the default step, or -1. */
  readonly defaultStep: number;
}

/** What the `step` kind indexes. */
export interface StepIndex {
  readonly orchestrations: readonly OrchestrationIndex[];
  /** How many recent completed tools `sequence_match` conditions need, 0 when none. */
  readonly recentLength: number;
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
