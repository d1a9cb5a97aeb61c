import type { RuleKind } from './rule-kind-types';

/** Where a rule came from, so a human can find it: its kind, id, file, index and (if known) line. */
export interface RuleRef {
  /** The rule's kind, or `builtin` for reasons that come from the runtime rather than a rule. */
  readonly kind: RuleKind | 'builtin';
  /** The rule's `id` from the file, or `FILE#PATH`; for built-ins, what gave the reason (`catalog`, …). */
  readonly id: string;
  /** The file the rule was read from; '' for built-ins. */
  readonly file: string;
  /** Position of the rule in its file's list of rules, from 0; -1 for built-ins. */
  readonly index: number;
  /** Where in the file, as a path such as `tool_rules[3]` or `preconditions[0]`. */
  readonly path: string;
  /** 1-based line, when the file was parsed with positions. */
  readonly line?: number;
}

/** What a built-in reason comes from. */
export type BuiltinRuleId = 'catalog' | 'run-end' | 'on-empty' | 'max-turns-per-run' | 'approval';

/** The reference of a reason that no rule of a file gave (unknown tool, turn limit, …). */
export function builtinRuleRef(id: BuiltinRuleId): RuleRef {
  return { kind: 'builtin', id, file: '', index: -1, path: '' };
}
