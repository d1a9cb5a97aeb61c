import type { CompiledRuleSet } from '../compiled-rule-set';
import type { RuleState } from '../rule-state';
import { ruleIndex } from './rule-index';
import type { EvaluationContext } from './rule-index-types';

/** Builds the context for one evaluation of a state. */
export function evaluationContext(rules: CompiledRuleSet, state: RuleState): EvaluationContext {
  return { rules, index: ruleIndex(rules), state, chains: new Map(), shared: new Map() };
}
