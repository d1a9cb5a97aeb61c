import type { AnyCompiledRule } from '../compiled-rule-set';
import type { Reason } from '../reason';
import type { ReasonCode } from '../reason-code';
import type { RuleRef } from '../rule-ref';

/** A reason record; `callFirst` is set only when it names at least one tool. */
export function makeReason(
  code: ReasonCode,
  rule: AnyCompiledRule | RuleRef,
  message: string,
  callFirst?: readonly string[],
): Reason {
  const ref = 'ref' in rule ? rule.ref : rule;
  return callFirst !== undefined && callFirst.length > 0
    ? { code, message, rule: ref, callFirst }
    : { code, message, rule: ref };
}
