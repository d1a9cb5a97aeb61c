import type { Reason, RunEnd } from '../rules';
import type { ShadowVerdict } from './shadow-verdict';

/** The tool choice a step got: the loop's own (`auto`), or forced by the rules. */
export type PolicyToolChoice = 'auto' | 'required' | { readonly type: 'tool'; readonly toolName: string };

/**
 * What the policy decided, as it decided it: the same facts a session's feed shows (runs, narrowing,
 * verdicts, recorded calls, end checks, what shadow rules would have done). Plain JSON.
 */
export type ToolrailPolicyEvent =
  /** A new user message started a run. */
  | { readonly type: 'run-started'; readonly run: number }
  /** A step (turn) began: the tools the model is offered, the others with why, and the tool choice. */
  | {
      readonly type: 'tools-narrowed';
      readonly turn: number;
      readonly visible: readonly string[];
      readonly hidden: readonly { readonly tool: string; readonly reasons: readonly Reason[] }[];
      /** Set when nothing is left to offer: the run ends here (`no_tool_allowed`). */
      readonly ended?: 'no_tool_allowed';
      readonly toolChoice: PolicyToolChoice;
    }
  /** The rules judged a call (`resumed`: again, when a request brings a human's approval of it). */
  | {
      readonly type: 'verdict';
      readonly callId: string;
      readonly tool: string;
      readonly verdict: 'allowed' | 'blocked';
      readonly reasons: readonly Reason[];
      readonly requiresApproval: boolean;
      readonly resumed?: true;
    }
  /** A call put up for approval only because an earlier call of its step (`behind`) waits for one: it runs after it. */
  | { readonly type: 'call-queued'; readonly callId: string; readonly tool: string; readonly behind: string }
  /** A call not run because an earlier call of its step (`behind`) waits for the browser's result. */
  | { readonly type: 'call-held'; readonly callId: string; readonly tool: string; readonly behind: string }
  /** A call that ran was recorded (`error`: it failed, an attempt that satisfies nothing). */
  | { readonly type: 'call-recorded'; readonly callId: string; readonly tool: string; readonly error: boolean }
  /** The model answered with text: whether the rules let that end the run, and if not why. */
  | { readonly type: 'end-checked'; readonly endsRun: boolean; readonly reasons: readonly Reason[] }
  /** The run ended (a terminal tool, an accepted answer, a limit, no tool left). */
  | { readonly type: 'run-ended'; readonly reason: RunEnd }
  /**
   * Shadow rules would have hidden tools of the step (`hidden`), refused a call (`refused`), asked a
   * human (`approval`) or refused the answer (`end`): reported beside the decision, which they did not change.
   */
  | ({ readonly type: 'rule-shadowed' } & ShadowVerdict);
