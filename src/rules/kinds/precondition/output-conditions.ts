import { canonicalJson, shortText } from '../../paths/canonical-json';
import { resolveJsonPath } from '../../paths/json-path';
import type { OutputCondition } from './output-condition-schema';

/** Whether one condition holds on a result. `gte`/`lte` fail on anything but a finite number. */
export function outputConditionHolds(condition: OutputCondition, result: unknown): { holds: boolean; got: unknown } {
  const { found, value } = resolveJsonPath(result, condition.path);
  if (condition.exists !== undefined && found !== condition.exists) return { holds: false, got: value };
  if ('equals' in condition && (!found || canonicalJson(value) !== canonicalJson(condition.equals))) {
    return { holds: false, got: value };
  }
  const numeric = typeof value === 'number' && Number.isFinite(value);
  if (condition.gte !== undefined && !(numeric && value >= condition.gte)) return { holds: false, got: value };
  if (condition.lte !== undefined && !(numeric && value <= condition.lte)) return { holds: false, got: value };
  return { holds: true, got: value };
}

/** The first failing condition's index (or -1) and a short text of what it saw. */
export function firstFailedCondition(
  conditions: readonly OutputCondition[],
  result: unknown,
): { failed: number; got: string } {
  for (let i = 0; i < conditions.length; i++) {
    const condition = conditions[i];
    if (condition === undefined) continue;
    const outcome = outputConditionHolds(condition, result);
    if (!outcome.holds) return { failed: i, got: shortText(outcome.got) };
  }
  return { failed: -1, got: '' };
}

/** A condition in words: `$.eligible equal to true`, `$.var_value at most 0.05`, … */
export function describeOutputCondition(condition: OutputCondition): string {
  const parts: string[] = [];
  if (condition.exists === true) parts.push('present');
  if (condition.exists === false) parts.push('absent');
  if ('equals' in condition) parts.push(`equal to ${shortText(condition.equals)}`);
  if (condition.gte !== undefined) parts.push(`at least ${condition.gte}`);
  if (condition.lte !== undefined) parts.push(`at most ${condition.lte}`);
  return `${condition.path} ${parts.join(' and ')}`;
}
