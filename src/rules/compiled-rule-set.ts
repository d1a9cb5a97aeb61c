import type { RuleBody } from './model/rule-schema';
import type { RuleRef } from './rule-ref';

/** One rule as the engine holds it: the unified body plus where it came from. */
export type CompiledRule = RuleBody & { readonly ref: RuleRef };

/** A compiled rule of one kind. */
export type CompiledRuleOf<K extends CompiledRule['kind']> = Extract<CompiledRule, { kind: K }>;

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
