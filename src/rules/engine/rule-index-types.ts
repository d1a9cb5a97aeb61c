import type { AnyCompiledRule, CompiledRuleSet } from '../compiled-rule-set';
import type { Reason } from '../reason';
import type { RuleRef } from '../rule-ref';
import type { RuleState, RuleStateDraft } from '../rule-state';
import type { CallOutcome } from './call-outcome';

/** What every check reads: the rules, their index, the state, and memos valid for this state only. */
export interface EvaluationContext {
  readonly rules: CompiledRuleSet;
  readonly index: RuleIndex;
  readonly state: RuleState;
  /** Per mode and tool: its prerequisites not met yet (filled by `callFirst`). */
  readonly chains: Map<string, readonly string[]>;
  /** Reasons that do not depend on the tool asked about (after-last, sequence, init), built once per state. */
  readonly shared: Map<string, Reason>;
}

/** A check of proposed calls, registered by a kind at index time. */
export interface ToolCheck {
  /** Where its reasons come in a reason list (see `reasonOrder`); ties go by `position`. */
  readonly order: number;
  /** Position in the rule set of its rule (of the first one, for a check of several rules). */
  readonly position: number;
  /** Adds every reason against calling `tool` now with `args` (`anyArguments` at narrowing) to `out`. */
  check(this: void, context: EvaluationContext, tool: string, args: unknown, out: Reason[]): void;
}

/** A check of a text answer (may it end the run now?), registered by a kind at index time. */
export interface EndCheck {
  /** Where its reasons come (see `endReasonOrder`); ties go by `position`. */
  readonly order: number;
  readonly position: number;
  /** Adds every reason against ending the run with a text answer now to `out`. */
  check(this: void, context: EvaluationContext, out: Reason[]): void;
}

/** What one engine step records: the rules, their index, and the state before the call. */
export interface RecordContext {
  readonly rules: CompiledRuleSet;
  readonly index: RuleIndex;
  readonly previous: RuleState;
}

/** What a kind records when a call completes, registered at index time. */
export interface Recorder {
  /** Replaces the kind's fields of `draft` (a fresh copy, with the shared fields already advanced). */
  record(this: void, draft: RuleStateDraft, outcome: CallOutcome, context: RecordContext): void;
}

/** Prerequisites of a tool that are not met yet, for `callFirst`, registered at index time. */
export interface PrerequisiteSource {
  /** Where its tools come (requires before preconditions); ties go by `position`. */
  readonly order: number;
  readonly position: number;
  /** True when its rule is only reported (`shadow`): `callFirst` of an enforced reason skips it. */
  readonly shadow: boolean;
  missing(this: void, context: EvaluationContext): readonly string[];
}

/** A tool that must complete in each run before the run may end. */
export interface ExitRequirement {
  readonly tool: string;
  readonly rule: AnyCompiledRule;
}

/** The rules that make calls of one tool wait for a human: the first enforced one and the first shadow one. */
export interface ApprovalRules {
  readonly enforce: AnyCompiledRule | null;
  readonly shadow: AnyCompiledRule | null;
}

/** Which calls of one response may change the verdict on which others (for `dependsOn`). */
export interface CallDependencies {
  /** Per tool: the tools whose verdicts its completion (or failure) may change. */
  readonly affects: ReadonlyMap<string, ReadonlySet<string>>;
  /** Tools whose completion may change the verdict on any tool. */
  readonly affectsAll: ReadonlySet<string>;
  /** Tools whose verdict may depend on any earlier call. */
  readonly dependsOnAll: ReadonlySet<string>;
  /** Every call may depend on every earlier one. */
  readonly always: boolean;
}

/** Lookup tables the engine derives from a compiled rule set and its kinds; built once per rule set object. */
export interface RuleIndex {
  /** Per tool: the checks of its calls (those of every tool included), in reason order. */
  readonly toolChecks: ReadonlyMap<string, readonly ToolCheck[]>;
  /** The checks of every tool's calls, in reason order: all a tool no rule names gets. */
  readonly everyToolChecks: readonly ToolCheck[];
  /** Per tool: the checks of every call right after it completed (the last completed call of the run). */
  readonly afterChecks: ReadonlyMap<string, readonly ToolCheck[]>;
  /** Per tool: the checks of a text answer right after it completed (every answer's included), in order. */
  readonly endChecksAfter: ReadonlyMap<string, readonly EndCheck[]>;
  /** The checks of every text answer, in order. */
  readonly everyEndChecks: readonly EndCheck[];
  /** Per tool: what kinds record when it completes (what they record for every call included). */
  readonly recorders: ReadonlyMap<string, readonly Recorder[]>;
  /** What kinds record when any call completes. */
  readonly everyRecorders: readonly Recorder[];
  /** Per tool: where its prerequisites come from, in order. */
  readonly prerequisites: ReadonlyMap<string, readonly PrerequisiteSource[]>;
  /** Slots of per-tool arrays in the rule state. */
  readonly attemptsRunSlot: ReadonlyMap<string, number>;
  readonly attemptsSessionSlot: ReadonlyMap<string, number>;
  readonly doneRunSlot: ReadonlyMap<string, number>;
  readonly doneSessionSlot: ReadonlyMap<string, number>;
  /** Tools that must complete in each run before it may end, in rule order. */
  readonly exitRequirements: readonly ExitRequirement[];
  /** Per tool: the rules that make its calls wait for a human. */
  readonly approvals: ReadonlyMap<string, ApprovalRules>;
  /** Tools whose results some rule reads when their calls are recorded. */
  readonly outputReaders: ReadonlySet<string>;
  readonly dependencies: CallDependencies;
  /** Every tool name some rule names (globs excluded). */
  readonly mentioned: ReadonlySet<string>;
  /** Every tool name some enforced rule names (globs excluded). */
  readonly mentionedEnforced: ReadonlySet<string>;
  /** The references of the rules that are only reported (`shadow`); empty when every rule is enforced. */
  readonly shadowRules: ReadonlySet<RuleRef>;
  /** What each kind's `index` returned, by kind. */
  readonly kinds: ReadonlyMap<string, unknown>;
}
