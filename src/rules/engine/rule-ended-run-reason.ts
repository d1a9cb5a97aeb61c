import type { AnyCompiledRule } from '../compiled-rule-set';
import type { Reason } from '../reason';
import { builtinRuleRef } from '../rule-ref';
import { makeReason } from './make-reason';

/** The reason every call is refused after a rule (a terminal tool's) ended the run. */
export function ruleEndedRunReason(rule: AnyCompiledRule | undefined): Reason {
  const tool = rule !== undefined && 'tool' in rule && typeof rule.tool === 'string' ? rule.tool : 'a terminal tool';
  return makeReason(
    'run_ended',
    rule ?? builtinRuleRef('run-end'),
    `The run has ended: ${tool} completed and ends it. Do not call more tools; answer the user.`,
  );
}
