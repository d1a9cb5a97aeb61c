import type { AnyCompiledRule } from '../compiled-rule-set';
import { ruleKindModule } from '../kinds/registered-rule-kinds';
import { canonicalJson } from '../paths/canonical-json';
import type { RuleDiagnostic } from '../rule-diagnostic';
import { diagnosticFor, ruleName } from './diagnostic-for';

/** A rule's identity: its body without `id` and `description`, lists its kind says are unordered sorted. */
function identity(rule: AnyCompiledRule): string {
  const normalised = ruleKindModule(rule.kind)?.load.identity?.(rule) ?? rule;
  const { ref: _ref, id: _id, description: _description, ...body } = normalised as Record<string, unknown>;
  return canonicalJson(body);
}

/** Each rule that repeats an earlier one (Letta's identity), with the rule it repeats. */
export function duplicatesOf(rules: readonly AnyCompiledRule[]): Map<AnyCompiledRule, AnyCompiledRule> {
  const seen = new Map<string, AnyCompiledRule>();
  const duplicates = new Map<AnyCompiledRule, AnyCompiledRule>();
  for (const rule of rules) {
    const key = identity(rule);
    const first = seen.get(key);
    if (first === undefined) seen.set(key, rule);
    else duplicates.set(rule, first);
  }
  return duplicates;
}

/** The `duplicate-rule` warning of a rule that repeats `first`. */
export function duplicateWarning(rule: AnyCompiledRule, first: AnyCompiledRule): RuleDiagnostic {
  return diagnosticFor(
    rule,
    'warning',
    'duplicate-rule',
    `${ruleName(rule)} repeats the rule at ${first.ref.file}:${first.ref.line ?? first.ref.path} and has no effect of its own`,
    'remove the duplicate',
  );
}
