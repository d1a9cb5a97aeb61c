import type { RuleRef } from './rule-ref';
import type { RuleBodyOf, RuleKind } from './rule-kind-types';
import type { RuleEnforcement } from './rule-enforcement';

/** A compiled rule of one kind: its body plus where it came from (`enforcement` is present only when `shadow`). */
export type CompiledRuleOf<K extends RuleKind> = RuleBodyOf<K> & { readonly ref: RuleRef };

/** One rule as the engine holds it: the unified body plus where it came from. */
export type CompiledRule = { [K in RuleKind]: CompiledRuleOf<K> }[RuleKind];

/** The steps of one orchestration (one AgentDock file, or the `step` rules of one unified file), in order. */
export interface CompiledOrchestration {
  readonly file: string;
  /** Indices into `rules` of this orchestration's `step` rules, in file order. */
  readonly steps: readonly number[];
}

/**
 * A rule set ready for the engine: plain JSON (it travels as Temporal workflow input), produced by
 * `compileRuleSet`. Treat it as opaque and immutable; the engine builds its indexes from it lazily.
 */
export interface CompiledRuleSet {
  readonly format: 'toolrail.compiled-rules';
  readonly version: 1;
  readonly rules: readonly CompiledRule[];
  readonly orchestrations: readonly CompiledOrchestration[];
  readonly settings: {
    /** What narrowing does when no tool is left: end the run, or offer every catalog tool. */
    readonly onEmpty: 'end-run' | 'allow-all';
    /** Turns one run may take before it ends with `turn_limit`. */
    readonly maxTurnsPerRun: number;
  };
  /** The catalog the rules were checked against, sorted, or `null` when none was given. */
  readonly catalog: readonly string[] | null;
}

/** Default for `maxTurnsPerRun`: 50 turns. */
export const defaultMaxTurnsPerRun = 50;

/** Any compiled rule, of a kind of the registry or not (a kind registered by a test): what helpers need. */
export interface AnyCompiledRule {
  readonly kind: string;
  readonly ref: RuleRef;
  /** Present (`shadow`) only for a rule that is reported, not enforced. */
  readonly enforcement?: RuleEnforcement | undefined;
}
