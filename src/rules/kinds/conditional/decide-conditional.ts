import { resolveJsonPath } from '../../paths/json-path';
import type { ConditionalDecision } from '../../rule-state';
import type { RuleOfKind } from '../rule-kind-module';

const numberText = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * The value a conditional rule reads: the value at `path` if given; else the result itself if it is a
 * scalar; else its `message` field (Letta's convention).
 */
export function conditionalValue(rule: RuleOfKind<'conditional'>, result: unknown): unknown {
  if (rule.path !== undefined) return resolveJsonPath(result, rule.path).value;
  if (result === null || typeof result !== 'object') return result;
  if (!Array.isArray(result) && Object.hasOwn(result, 'message')) return (result as { message: unknown }).message;
  return undefined;
}

function valueText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}

/**
 * Whether a mapping key matches a value, by what the key says: `true`/`false` (any case) match a
 * boolean or its text case-insensitively, without trimming blanks (as Letta); a numeric key matches
 * numerically (`"5"` matches 5 and
 * `"5.0"`); any other key matches the text exactly.
 */
export function mappingKeyMatches(key: string, value: unknown): boolean {
  const text = valueText(value);
  if (text === null) return false;
  const lowered = key.trim().toLowerCase();
  if (lowered === 'true' || lowered === 'false') return text.toLowerCase() === lowered;
  if (numberText.test(key.trim())) {
    if (typeof value === 'boolean') return false;
    const trimmed = text.trim();
    return numberText.test(trimmed) && Number(trimmed) === Number(key.trim());
  }
  return text === key;
}

/**
 * The decision of a conditional rule on its tool's result: the first matching key's child; else, in
 * strict mode, nothing; else the default child; else no constraint (Letta's order).
 */
export function decideConditional(
  index: number,
  rule: RuleOfKind<'conditional'>,
  result: unknown,
): ConditionalDecision {
  const value = conditionalValue(rule, result);
  for (const entry of rule.mapping) {
    if (mappingKeyMatches(entry.when, value)) return { rule: index, allow: [entry.child], matched: entry.when };
  }
  if (rule.strict) return { rule: index, allow: [], matched: null };
  if (rule.default_child !== undefined) return { rule: index, allow: [rule.default_child], matched: null };
  return { rule: index, allow: null, matched: null };
}
