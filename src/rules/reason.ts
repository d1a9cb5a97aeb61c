import type { ReasonCode } from './reason-code';
import type { RuleRef } from './rule-ref';

/** One reason a tool is hidden, a call is refused, or a text answer is not accepted. */
export interface Reason {
  readonly code: ReasonCode;
  /** Written for the model: what to do next. */
  readonly message: string;
  /** The rule that gave this reason. */
  readonly rule: RuleRef;
  /** Tools to call first, earliest first, following prerequisites transitively. */
  readonly callFirst?: readonly string[];
}
