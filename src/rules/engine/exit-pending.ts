import type { CoreRuleState } from '../rule-state';
import { isDone } from './is-done';
import { isShadow } from './is-shadow';
import type { RuleIndex } from './rule-index-types';

/**
 * Whether a tool the run must complete before it may end has not completed in it yet. With `shadow`
 * false only enforced requirements count; with `shadow` true (what would happen if every rule were
 * enforced) all of them.
 */
export function exitPending(view: { readonly index: RuleIndex; readonly state: CoreRuleState }, shadow: boolean) {
  for (const requirement of view.index.exitRequirements) {
    if ((shadow || !isShadow(requirement.rule)) && !isDone(view, requirement.tool, 'run')) return true;
  }
  return false;
}
