import type { Reason, RuleRef } from '../rules';

/**
 * What shadow rules (`enforcement: shadow`) would have done had they been enforced; the policy did
 * none of it. Each names the turn (the step) it belongs to. Plain JSON.
 */
export type ShadowVerdict =
  /**
   * Tools the step offered that they would have hidden, sorted by name, with their reasons; `ended`:
   * nothing would have been left to offer, so the run would have ended here.
   */
  | {
      readonly kind: 'hidden';
      readonly turn: number;
      readonly tools: readonly { readonly tool: string; readonly reasons: readonly Reason[] }[];
      readonly ended?: 'no_tool_allowed';
    }
  /**
   * A call the rules allowed that they would have refused: their reasons, and `message`, the text the
   * model would have read as the call's result (with the tools to call first).
   */
  | {
      readonly kind: 'refused';
      readonly turn: number;
      readonly callId: string;
      readonly tool: string;
      readonly reasons: readonly Reason[];
      readonly message: string;
    }
  /**
   * A call the rules allowed without a human that a shadow `requires_approval` rule (`rule`) would
   * have put up for approval.
   */
  | {
      readonly kind: 'approval';
      readonly turn: number;
      readonly callId: string;
      readonly tool: string;
      readonly rule: RuleRef;
    }
  /** A text answer that ended the run that they would have refused, with their reasons. */
  | { readonly kind: 'end'; readonly turn: number; readonly reasons: readonly Reason[] };
