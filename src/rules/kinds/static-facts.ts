import type { AnyCompiledRule, CompiledRule, CompiledRuleOf } from '../compiled-rule-set';
import type { RuleKind } from '../rule-kind-types';

/** What can be known about the tools of a rule set without running anything, for the load-time checks. */
export interface StaticFacts {
  /** Every rule of the set, in order. */
  readonly rules: readonly CompiledRule[];
  /** Every tool a rule names (globs excluded). */
  readonly mentioned: ReadonlySet<string>;
  /** The rules of a kind, in order. */
  rulesOf<K extends RuleKind>(kind: K): CompiledRuleOf<K>[];
  /** The rules of a kind whose `tool` is `tool`, in order. */
  rulesOn<K extends RuleKind>(kind: K, tool: string): CompiledRuleOf<K>[];
  /** Why some rule makes `tool` never callable (`max_count: 0`, an unmatched-tool block), or `null`. */
  neverCallable(tool: string): string | null;
  /** Why some rule blocks `tool` at the start of a run (never callable included), or `null`. */
  blockedAtStart(tool: string): string | null;
  /** Why some rule blocks `tool` right after `previous` completed, or `null`. */
  blockedRightAfter(previous: string, tool: string): string | null;
  /** The position of a rule in the set. */
  positionOf(rule: AnyCompiledRule): number;
}
