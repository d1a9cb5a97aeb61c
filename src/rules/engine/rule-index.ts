import type { AnyCompiledRule, CompiledRuleSet } from '../compiled-rule-set';
import type { Positioned } from '../kinds/rule-kind-module';
import { registeredRuleKinds, ruleKindModule } from '../kinds/registered-rule-kinds';
import type { RuleRef } from '../rule-ref';
import { isToolPattern } from '../paths/tool-pattern';
import { isShadow } from './is-shadow';
import { RuleIndexBuilder } from './rule-index-builder';
import type { RuleIndex } from './rule-index-types';

const cache = new WeakMap<CompiledRuleSet, RuleIndex>();

/** The index of a rule set: built on first use and cached by object identity (deterministic). */
export function ruleIndex(rules: CompiledRuleSet): RuleIndex {
  const known = cache.get(rules);
  if (known) return known;
  const index = buildRuleIndex(rules);
  cache.set(rules, index);
  return index;
}

/** Asks every registered kind to index its rules of the set, in the registry's order. */
function buildRuleIndex(set: CompiledRuleSet): RuleIndex {
  const byKind = new Map<string, Positioned<AnyCompiledRule>[]>();
  const mentioned = new Set<string>();
  const mentionedEnforced = new Set<string>();
  const shadowRules = new Set<RuleRef>();
  set.rules.forEach((rule: AnyCompiledRule, position) => {
    const module = ruleKindModule(rule.kind);
    if (module === undefined) {
      throw new Error(
        `rules[${position}] is of kind ${JSON.stringify(rule.kind)}, which no registered rule kind handles`,
      );
    }
    const list = byKind.get(rule.kind) ?? [];
    list.push({ rule, position });
    byKind.set(rule.kind, list);
    if (isShadow(rule)) shadowRules.add(rule.ref);
    for (const { tool } of module.tools(rule)) {
      if (isToolPattern(tool)) continue;
      mentioned.add(tool);
      if (!isShadow(rule)) mentionedEnforced.add(tool);
    }
  });
  const builder = new RuleIndexBuilder();
  const kinds = new Map<string, unknown>();
  for (const module of registeredRuleKinds()) {
    kinds.set(module.kind, module.index(byKind.get(module.kind) ?? [], { on: builder, set }));
  }
  return builder.finish({ mentioned, mentionedEnforced, shadowRules, kinds });
}
