import type { CompiledRuleSet } from '../rules';
import type {
  ChildSessionReport,
  MessageRef,
  RunEndReason,
  SessionCounters,
  SessionInput,
  SessionStatus,
  SessionUsage,
} from '../session';

/** How a child session's workflow is closed when its parent closes first (Temporal's `ParentClosePolicy`). */
export type ChildSessionClosePolicy = 'REQUEST_CANCEL' | 'TERMINATE' | 'ABANDON';

/** Options of `startChildSession`: `startSession`'s, for a session started from workflow code. */
export type StartChildSessionOptions = Omit<
  SessionInput,
  'carried' | 'rules' | 'firstMessageRef' | 'reportToParent'
> & {
  /**
   * Compiled rules (compile them where files can be read, e.g. before the parent starts, and pass
   * them in its input).
   */
  rules: CompiledRuleSet;
  /** The session id (the child's workflow id). Defaults to `session-<uuid>` (deterministic: `uuid4()`). */
  sessionId?: string;
  /** Task queue of the workers that run sessions. Defaults to the parent's. */
  taskQueue?: string;
  /**
   * What happens to the session when the parent closes while it runs: `REQUEST_CANCEL` (the
   * default) cancels its workflow (its model call and running tools are cancelled, it ends
   * `canceled`); `TERMINATE` ends it at once; `ABANDON` lets it run on to its own end. The
   * parent's cancellation is not a close: it interrupts and ends the session (see `result()`).
   */
  parentClosePolicy?: ChildSessionClosePolicy;
};

/** One thing a child session tells its parent, in the order it happened. */
export type ChildSessionEvent =
  | Extract<ChildSessionReport, { type: 'approvals_requested' }>
  | Extract<ChildSessionReport, { type: 'run_ended' }>
  | { type: 'session_ended'; sessionId: string; result: ChildSessionResult };

/** What a child session ended with. */
export interface ChildSessionResult {
  sessionId: string;
  /** `completed`, or `failed` when its last run ended in a model failure. */
  status: SessionStatus;
  /** Why its last run ended (`answered`, `interrupted`, …); `null` when no run ran. */
  lastRunEnd: RunEndReason | null;
  /** The model's latest text in its last run, whole (read from the content store when longer than its preview). */
  answer?: string;
  /** The answer's message in the content store. */
  answerRef?: MessageRef;
  usage: SessionUsage;
  counters: SessionCounters;
  lastTool: string | null;
  /** Whether the parent's cancellation interrupted and ended it. */
  parentCancelled: boolean;
}

/** What the session did with a decision: took it, or refused it (an unknown call, or one decided already). */
export type ChildSessionDecision =
  { callId: string; decision: 'approved' | 'denied' } | { callId: string; refused: string };
