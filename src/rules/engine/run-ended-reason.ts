import { builtinRuleRef } from '../rule-ref';
import type { Reason } from '../reason';
import { makeReason } from './make-reason';
import { ruleEndedRunReason } from './rule-ended-run-reason';
import type { EvaluationContext } from './rule-index-types';

/** The reason every call is refused once the run has ended, or `null` while it goes on. */
export function runEndedReason(context: EvaluationContext): Reason | null {
  const { state, rules } = context;
  switch (state.ended) {
    case null:
      return null;
    case 'terminal':
      return ruleEndedRunReason(state.endedBy === null ? undefined : rules.rules[state.endedBy]);
    case 'turn_limit':
      return makeReason(
        'turn_limit',
        builtinRuleRef('max-turns-per-run'),
        `The run reached its limit of ${rules.settings.maxTurnsPerRun} turns. Stop calling tools.`,
      );
    case 'no_tool_allowed':
      return makeReason(
        'no_tool_allowed',
        builtinRuleRef('on-empty'),
        'No tool is allowed now, so the run has ended. Do not call more tools.',
      );
    case 'answered':
      return makeReason(
        'run_ended',
        builtinRuleRef('run-end'),
        'The run has ended with your answer. Wait for the next user message.',
      );
    default:
      return unreachableRunEnd(state.ended);
  }
}

function unreachableRunEnd(ended: never): never {
  throw new Error(`unknown run end ${JSON.stringify(ended)}`);
}
