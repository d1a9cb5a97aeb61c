import type { CompiledRule, CompiledRuleOf } from '../compiled-rule-set';
import { isToolPattern } from '../paths/tool-pattern';
import { ruleTools } from './rule-tools';

/** What can be known about tools without running anything, for the load-time checks. */
export interface StaticFacts {
  /** Tools a `max_count` rule limits to 0 calls, with that rule. */
  readonly neverCallable: Map<string, CompiledRule>;
  /** The `default: block` rule that blocks a tool, if any. */
  blockedByDefault(tool: string): CompiledRule | undefined;
  /** Rules of a kind on a tool. */
  rulesOn<K extends CompiledRule['kind']>(kind: K, tool: string): CompiledRuleOf<K>[];
  readonly terminalTools: ReadonlySet<string>;
}

/** Derives the {@link StaticFacts} of a rule list. */
export function staticFacts(rules: readonly CompiledRule[]): StaticFacts {
  const mentioned = new Set<string>();
  for (const rule of rules) for (const { tool } of ruleTools(rule)) if (!isToolPattern(tool)) mentioned.add(tool);
  const neverCallable = new Map<string, CompiledRule>();
  const byKindTool = new Map<string, CompiledRule[]>();
  const terminalTools = new Set<string>();
  for (const rule of rules) {
    if (rule.kind === 'max_count' && rule.limit === 0 && !neverCallable.has(rule.tool))
      neverCallable.set(rule.tool, rule);
    if (rule.kind === 'terminal') terminalTools.add(rule.tool);
    if ('tool' in rule) {
      const key = `${rule.kind}\u0000${rule.tool}`;
      byKindTool.set(key, [...(byKindTool.get(key) ?? []), rule]);
    }
  }
  const defaults = rules.filter(
    (rule): rule is CompiledRuleOf<'default'> => rule.kind === 'default' && rule.policy === 'block',
  );
  return {
    neverCallable,
    terminalTools,
    blockedByDefault: (tool) =>
      defaults.find((rule) => (rule.known === undefined ? !mentioned.has(tool) : !rule.known.includes(tool))),
    rulesOn: <K extends CompiledRule['kind']>(kind: K, tool: string) =>
      (byKindTool.get(`${kind}\u0000${tool}`) ?? []) as CompiledRuleOf<K>[],
  };
}

/** Why a tool can never be called at all, or `null`. */
export function neverCallableReason(facts: StaticFacts, tool: string): string | null {
  if (facts.neverCallable.has(tool)) return `${tool} has max_count 0`;
  const blocked = facts.blockedByDefault(tool);
  if (blocked !== undefined) {
    return blocked.kind === 'default' && blocked.known !== undefined
      ? `${tool} has no contract and tools without one are blocked`
      : `${tool} is blocked by default: no rule covers it`;
  }
  return null;
}
