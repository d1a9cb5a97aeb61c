import type { AnyCompiledRule } from '../compiled-rule-set';

/** Whether a rule is only reported, not enforced (`enforcement: shadow`). */
export function isShadow(rule: AnyCompiledRule): boolean {
  return rule.enforcement === 'shadow';
}
