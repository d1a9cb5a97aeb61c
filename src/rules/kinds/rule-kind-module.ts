import type { CompiledRuleSet } from '../compiled-rule-set';
import type { EvaluationContext, RuleIndex } from '../engine/rule-index-types';
import type { RuleRef } from '../rule-ref';
import type { RuleKind, RuleKindTypeEntry, RuleKindTypes } from '../rule-kind-types';
import type { CoreRuleState, RuleStateDraft } from '../rule-state';
import type { CommonRuleFields, KindSchema, Zod } from './common-rule-fields';
import type { GraphDraw } from './graph-draw';
import type { IndexBuilder } from './index-builder';
import type { KindFormats } from './kind-formats';
import type { LoadChecks } from './load-checks';

/** A compiled rule of a kind with these types: its body (`enforcement` only when `shadow`) and where it came from. */
export type KindRule<Types extends RuleKindTypeEntry> = Types['rule'] & { readonly ref: RuleRef };

/** A rule with its position in the rule set (what the rule state refers to it by). */
export interface Positioned<Rule> {
  readonly rule: Rule;
  readonly position: number;
}

/** A tool a rule names, with the field that names it (for the catalog check, coverage and the graph). */
export interface ToolMention {
  readonly tool: string;
  readonly field: string;
}

/**
 * Everything about one rule kind, in one module: its schema, its load-time checks, what it indexes and
 * the checks and recorders it registers there (narrowing, validation, the end of a run, recording),
 * the fields it keeps in the rule state, how the state's view and the rule graph show it, and how each
 * native format that has it maps to it. Every piece is required: one that does nothing says so.
 */
export interface RuleKindDefinition<Name extends string, Types extends RuleKindTypeEntry, Index = unknown> {
  readonly kind: Name;
  /** Its reason codes by name, e.g. `{ prerequisiteNotMet: 'prerequisite_not_met' }`; they join `ReasonCode`. */
  readonly reasonCodes: { readonly [name: string]: Types['reasonCode'] };
  /** The schema of its rule body (`z.object({...common.toolRule, kind: z.literal(...)}).strict()`). */
  schema(this: void, zod: Zod, common: CommonRuleFields): KindSchema;
  /** Every tool a rule names, with the field that names it (globs included). */
  tools(this: void, rule: KindRule<Types>): ToolMention[];
  /** Its load-time checks, and the facts it gives other kinds' checks. */
  readonly load: LoadChecks<KindRule<Types>>;
  /**
   * Indexes its rules of a rule set (in order, with their positions): registers with `on` the flags it
   * reads and its checks and recorders, and returns what its other pieces need (`own`).
   */
  index(
    this: void,
    rules: readonly Positioned<KindRule<Types>>[],
    indexing: { readonly on: IndexBuilder; readonly set: CompiledRuleSet },
  ): Index;
  /** Its fields of the rule state in a new session (`{}` when it keeps none); `start.state` has the shared ones. */
  initialState(
    this: void,
    own: Index,
    start: { readonly index: RuleIndex; readonly state: CoreRuleState },
  ): Types['state'];
  /** What a user message changes in its fields (the shared fields of `draft` have started the run). */
  startRun(
    this: void,
    draft: RuleStateDraft,
    own: Index,
    run: { readonly message: string; readonly index: RuleIndex },
  ): void;
  /** Its fields of the state's readable view (`describeRuleState`), `{}` when it adds none. */
  describe(this: void, context: EvaluationContext, own: Index): Types['view'];
  /** Draws a rule in the rule graph (`toolrail graph`). */
  graph(this: void, rule: KindRule<Types>, draw: GraphDraw): void;
  /** How each native format that has the kind maps to it. */
  readonly formats: KindFormats;
}

type EntryOf<K extends RuleKind> = Extract<RuleKindTypes[K], RuleKindTypeEntry>;

/** The module of a kind of the registry: typed by what the kind declares in `RuleKindTypes`. */
export type RuleKindModule<K extends RuleKind, Index = unknown> = RuleKindDefinition<K, EntryOf<K>, Index>;

/** A kind of the registry's rule. */
export type RuleOfKind<K extends RuleKind> = KindRule<EntryOf<K>>;

/** Any kind's module, as the engine drives it (a kind of the registry, or one a test registered). */
export type AnyRuleKind = RuleKindDefinition<string, RuleKindTypeEntry>;
