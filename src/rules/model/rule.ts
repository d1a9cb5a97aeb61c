import type { RuleFormat } from '../rule-format';
import type { RuleBody } from '../rule-kind-types';
import type { RuleEnforcement } from '../rule-enforcement';

/** Where a rule was read from. */
export interface RuleSource {
  readonly file: string;
  /** Position in the file's list of rules, from 0. */
  readonly index: number;
  /** Path inside the file, e.g. `tool_rules[3]`. */
  readonly path: string;
  readonly line?: number;
}

/** One rule of the unified model with its source. */
export type Rule = RuleBody & { readonly source: RuleSource };

/** Rule kinds that name a single tool in `tool`. */
export type ToolRule = Extract<Rule, { tool: string }>;

/** Session-wide settings a document may carry. */
export interface RuleSettings {
  /** What to do when narrowing leaves no tool: end the run (default) or offer every catalog tool. */
  readonly onEmpty?: 'end-run' | 'allow-all';
  /** How many turns one run may take before it ends with `turn_limit`. Defaults to 50. */
  readonly maxTurnsPerRun?: number;
  /**
   * `shadow`: the document's rules are only reported (see `RuleEnforcement`); a rule's own `enforcement` wins.
   * Defaults to `enforce`.
   */
  readonly enforcement?: RuleEnforcement;
}

/** The rules read from one file (or one contract directory), in the unified model. */
export interface RuleDocument {
  readonly file: string;
  readonly format: RuleFormat;
  readonly rules: readonly Rule[];
  readonly settings?: RuleSettings;
}
