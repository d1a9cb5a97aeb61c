import type { Reason } from '../reason';
import type { EvaluationContext } from './rule-index-types';

/** A reason shared by every tool it applies to, built on first use for the context's state. */
export function sharedReason(context: EvaluationContext, key: string, build: () => Reason): Reason {
  let reason = context.shared.get(key);
  if (reason === undefined) {
    reason = build();
    context.shared.set(key, reason);
  }
  return reason;
}
