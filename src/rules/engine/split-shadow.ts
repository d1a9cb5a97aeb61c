import type { Reason } from '../reason';
import type { RuleIndex } from './rule-index-types';

/** Reasons split into those of enforced rules (and built-ins) and those of shadow rules, each in order. */
export function splitShadow(index: RuleIndex, reasons: Reason[]): { enforced: Reason[]; shadow: Reason[] } {
  if (index.shadowRules.size === 0) return { enforced: reasons, shadow: [] };
  const enforced: Reason[] = [];
  const shadow: Reason[] = [];
  for (const reason of reasons) (index.shadowRules.has(reason.rule) ? shadow : enforced).push(reason);
  return { enforced, shadow };
}
