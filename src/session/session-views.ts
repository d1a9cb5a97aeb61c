import type { RuleStateView } from '../rules';
import type { SessionCounters } from './session-counters';
import type { ContentRef, StoreIdentity } from '../store';
import type { RunEndReason, SessionStatus } from './session-status';
import type { ModelFinishReason, ModelUsage } from '../models';
import type { SessionUsage } from './model-usage';
import type { SessionAnswer } from './session-answer';
import type { StoreProblem } from './store-problem';
import type { WorkerWait } from './worker-wait';
import type { ShadowReasonView, ShadowVerdict } from './shadow-verdict';

/** A call that waits for a human decision (`approveToolCall`). */
export interface PendingApproval {
  callId: string;
  toolName: string;
  /** The parsed input the human is asked to approve. */
  input: unknown;
  /** Why it needs approval: the tool's permission message, or the rule that requires it. */
  reason: string;
  destructive: boolean;
  /** Epoch milliseconds (workflow time) when the approval times out and counts as denied. */
  deadline: number;
}

/** A call whose activity is running right now. */
export interface RunningCall {
  callId: string;
  toolName: string;
  interruptBehavior: 'cancel' | 'block';
}

/** A tool of this turn's catalog that cannot run now (its MCP server is down), and why. */
export interface UnavailableTool {
  toolName: string;
  reason: string;
}

/** The answer of the `ruleState` query: the engine's view plus what the session is waiting on. */
export interface SessionRuleStateView {
  /**
   * What `rules` describes: `run`, the run in progress, as it is now; `between-runs`, the next run as
   * it will start (run-scoped counts and sequences reset, init rules apply again; step conditions on
   * the user's message are decided when it arrives), so it says what the next run will allow;
   * `ended`, the session as it ended.
   */
  phase: 'run' | 'between-runs' | 'ended';
  rules: RuleStateView;
  pendingApprovals: PendingApproval[];
  runningCalls: RunningCall[];
  /** Why the session waits for its content store, while it does (status `waiting_for_store`). */
  storeProblem?: StoreProblem;
  /** Tools of the current turn's catalog that cannot run now, with the reason (also in their descriptions). */
  unavailableTools: UnavailableTool[];
  /** Tokens the model calls reported: the session's and its current (or last) run's. */
  usage: SessionUsage;
}

/** The answer of the `status` query. */
export interface SessionStatusView {
  status: SessionStatus;
  /** Why the last run ended; `null` before any ended. */
  lastRunEnd: RunEndReason | null;
  lastTool: string | null;
  counters: SessionCounters;
  queuedMessages: number;
  /** Tokens the model calls reported: the session's and its current (or last) run's. */
  usage: SessionUsage;
  /**
   * The model's latest text in the current (or last) run, if it wrote any (a preview, and its
   * message in the content store): with `lastRunEnd` `answered`, the run's answer.
   */
  answer?: SessionAnswer;
  /**
   * The content store the session keeps its conversation in (sessions started before toolrail
   * recorded it have none).
   */
  store?: StoreIdentity;
  /** Why the session waits for its content store, while it does (status `waiting_for_store`). */
  storeProblem?: StoreProblem;
  /** The calls of activity tools that wait for a worker, while any does (status `waiting_for_worker`). */
  workerWaits?: WorkerWait[];
}

/** What a model request showed of the conversation (see the context budget in the README). */
export interface ModelContextView {
  /** Messages in the request. */
  messages: number;
  /** Tool results shown as their preview only, to fit the budget. */
  previewed: number;
  /** Oldest messages left out entirely, to fit the budget. */
  omitted: number;
  /** UTF-8 bytes of the request's messages. */
  bytes: number;
  budgetBytes: number;
}

/**
 * One line of the human-readable transcript (the `transcript` query). It stays light: user
 * messages, model text and tool results carry a preview (the first 200 characters) and `ref`, the
 * reference of the whole message in the session's content store (`SessionHandle.transcript({ full:
 * true })` and `toolrail transcript` read it from there).
 */
export type TranscriptEntry =
  | { kind: 'user'; turn: number; text: string; ref?: ContentRef }
  | {
      kind: 'model';
      turn: number;
      text?: string;
      visible: string[];
      calls: { callId: string; tool: string; args: unknown }[];
      ref?: ContentRef;
      shown?: ModelContextView;
      /** Why the model stopped (see `ModelFinishReason`), and the provider's own word for it. */
      finishReason?: ModelFinishReason;
      rawFinishReason?: string;
      /** The tokens this call used, as the provider reported them. */
      usage?: ModelUsage;
    }
  | {
      kind: 'verdict';
      turn: number;
      callId: string;
      tool: string;
      verdict: 'allowed' | 'blocked';
      reasons: { code: string; message: string; callFirst?: readonly string[] }[];
    }
  | {
      kind: 'approval';
      turn: number;
      callId: string;
      tool: string;
      decision: 'approved' | 'denied' | 'timed_out' | 'interrupted';
      reason?: string;
    }
  | {
      kind: 'tool';
      turn: number;
      callId: string;
      tool: string;
      isError: boolean;
      code?: string;
      content: string;
      ref?: ContentRef;
    }
  /**
   * What shadow rules (`enforcement: shadow`) would have done, and why: hidden tools at the turn's
   * narrowing (at most 100; `omitted` counts the rest), a call refused or put up for approval, the
   * run's ending answer refused. Nothing of it was enforced.
   */
  | { kind: 'shadow'; turn: number; shadow: ShadowVerdict<ShadowReasonView>; omitted?: number }
  | { kind: 'run-end'; turn: number; reason: RunEndReason; detail?: string }
  | { kind: 'notice'; turn: number; text: string };

/** A transcript entry before the session stamps it with the turn's index. */
export type TranscriptNote = TranscriptEntry extends infer Entry
  ? Entry extends unknown
    ? Omit<Entry, 'turn'>
    : never
  : never;
