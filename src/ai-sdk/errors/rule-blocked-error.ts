import { ToolrailError } from '../../errors';
import type { Reason } from '../../rules';

/**
 * What a policy-wrapped tool throws when the rules refuse its call at execution time (a call whose
 * verdict waited for an earlier call of the same step, or a loop without `toolApproval`). The AI SDK
 * turns it into the call's tool error: the model reads the message, the rules' reasons.
 */
export class RuleBlockedError extends ToolrailError {
  static override readonly brand = Symbol.for('toolrail.error.RULE_BLOCKED');
  declare readonly code: 'RULE_BLOCKED';
  readonly toolName: string;
  /** Why the rules refused the call. */
  readonly reasons: readonly Reason[];

  constructor({ toolName, reasons, message }: { toolName: string; reasons: readonly Reason[]; message: string }) {
    super({ code: 'RULE_BLOCKED', message });
    this.name = 'RuleBlockedError';
    this.toolName = toolName;
    this.reasons = reasons;
  }
}
