import type { ModelFinishReason, ModelUsage } from '../models';
import type { ContentRef } from '../store';
import type { ApprovalDecision } from './session-events';
import type { ShadowReasonView, ShadowVerdict } from './shadow-verdict';
import type { RunEndReason } from './session-status';
import type { StoreProblem } from './store-problem';
import type { WorkerWait } from './worker-wait';
import type { UsageTotals } from './model-usage';

/** A reason as the feed shows it: the rule engine's code, its message, and what to call first. */
export interface FeedReason {
  code: string;
  message: string;
  callFirst?: readonly string[];
}

/**
 * A proposed call's arguments, or a call's output, as the feed shows it: the JSON value itself when
 * it is small (at most {@link feedValueBytes}), else the first {@link feedPreviewChars} characters
 * of its JSON with `truncated: true`.
 */
export type FeedValue = { value: unknown; truncated?: never } | { preview: string; truncated: true };

/** A call the model proposed. */
export interface FeedCall {
  callId: string;
  tool: string;
  args: FeedValue;
}

/** A call put up for a human's approval. */
export interface FeedApproval {
  callId: string;
  tool: string;
  input: FeedValue;
  /** Why it needs approval. */
  reason: string;
  destructive: boolean;
  /** When it counts as denied (workflow time, epoch ms). */
  deadline: number;
}

/** One result as it joined the conversation: a preview, and the stored message's reference. */
export interface FeedResult {
  callId: string;
  tool: string;
  isError: boolean;
  code?: string;
  preview: string;
  ref?: ContentRef;
}

/**
 * What happened, as the live feed shows it: a trimmed JSON view of the session's events (previews
 * and references into the content store, never whole messages or the calls' internals).
 */
export type FeedEventBody =
  /** A user message was queued for its run. */
  | { type: 'message_received'; via: 'start' | 'update' | 'signal'; preview: string }
  /**
   * A run began with a queued message. `messageOffset`: the offset of the `message_received` (or
   * `interrupt_received`) event that queued it; absent for a message queued before the session had a feed.
   */
  | { type: 'run_started'; message: ContentRef; messageOffset?: number }
  /** A model turn began (`resumed`: a turn continued from the previous workflow run). */
  | { type: 'turn_started'; resumed?: true }
  /**
   * The tools the model is shown, and every hidden one with why (at most 100 of each; `omitted`
   * counts the rest).
   */
  | {
      type: 'tools_narrowed';
      visible: string[];
      hidden: { tool: string; reasons: FeedReason[] }[];
      omitted?: { visible: number; hidden: number };
    }
  /** The model was asked, with this many tools. */
  | { type: 'model_call_started'; tools: number }
  /**
   * Shadow rules (`enforcement: shadow`) would have hidden tools (`hidden`: at most 100, `omitted`
   * counts the rest), refused a call (`refused`), put it up for approval (`approval`) or refused the
   * answer that ended the run (`end`), with their reasons; nothing of it was enforced.
   */
  | ({ type: 'rule_shadowed'; omitted?: number } & ShadowVerdict<ShadowReasonView>)
  /**
   * Text the model wrote so far, as it streams (`attempt`: a retried model call starts its text
   * again). `live`: it came through the live channel, as the model wrote it, and is not in the
   * durable feed: its `offset` is the one of the event before it (resuming after it misses no
   * durable event), its `at` the worker's clock.
   */
  | { type: 'text_delta'; attempt: number; text: string; live?: true }
  /**
   * The model answered: a preview of its text, the calls it proposed, the stored response; why it
   * stopped (`finishReason`, and the provider's own `rawFinishReason`) and the tokens it used, when
   * the model layer said.
   */
  | {
      type: 'model_responded';
      text?: string;
      calls: FeedCall[];
      message: ContentRef;
      finishReason?: ModelFinishReason;
      rawFinishReason?: string;
      usage?: ModelUsage;
    }
  /** The model call ended without an answer. */
  | { type: 'model_call_failed'; interrupted: boolean; error?: string }
  /** The model answered in text, but the rules do not let the run end yet; it is told why. */
  | { type: 'end_refused'; text: string }
  /** The rules judged a proposed call. */
  | { type: 'verdict'; callId: string; tool: string; verdict: 'allowed' | 'blocked'; reasons: FeedReason[] }
  /** Calls wait for a human (`approve` / `deny`). */
  | { type: 'approvals_requested'; approvals: FeedApproval[] }
  /** A human decided one waiting call. */
  | { type: 'approval_decided'; callId: string; approved: boolean; reason?: string }
  /** The wait for approvals ended: how each call's approval ended. */
  | {
      type: 'approvals_closed';
      decisions: { callId: string; tool: string; decision: ApprovalDecision; reason?: string }[];
    }
  /** A batch of calls started together. */
  | { type: 'batch_started'; index: number; size: number; callIds: string[] }
  /** One call started running. */
  | { type: 'tool_started'; callId: string; tool: string; approved: boolean }
  /**
   * One call ended: its output (or error message) trimmed. An output the workflow does not hold (the
   * rules do not read it) shows as the preview of its stored result. `ref`: the stored result, to
   * read it whole (absent while the content store could not take it: `results_appended` names it then).
   */
  | {
      type: 'tool_ended';
      callId: string;
      tool: string;
      isError: boolean;
      code?: string;
      output: FeedValue;
      ref?: ContentRef;
    }
  /** The batch's calls all have their outcomes. */
  | { type: 'batch_ended'; index: number }
  /** Calls that will not run (the user interrupted). */
  | { type: 'batch_cancelled'; callIds: string[] }
  /**
   * Results joined the conversation, in call order (a large batch's in several such events, each at
   * most 64 KiB of JSON).
   */
  | { type: 'results_appended'; results: FeedResult[] }
  /** The user interrupted; `message`: a preview of the message queued first, to start the next run. */
  | { type: 'interrupt_received'; message?: string }
  /** The session was asked to end once the current run is over. */
  | { type: 'end_requested' }
  /** The run ended, and why; `usage`: what its model calls used (the `status` query's `usage.run` at its end). */
  | { type: 'run_ended'; reason: RunEndReason; detail?: string; usage?: UsageTotals }
  /** Something the session did with an input it could not take, or learned about a tool. */
  | { type: 'notice'; text: string }
  /**
   * The session waits for its content store, and why (`problem.code`, its message, the store and
   * key); again with each newer problem of the same wait (`problem.retries` counts them). `wait`
   * numbers the operation within its workflow run; its `store_back` carries the same number.
   */
  | { type: 'store_waiting'; wait: number; problem: StoreProblem }
  /** The content store is back for the operation `wait`: the session goes on. */
  | { type: 'store_back'; wait: number }
  /**
   * A call of an activity tool waits for a worker of `taskQueue` with `activityType`, and why
   * (`worker_back` ends it).
   */
  | ({ type: 'worker_waiting' } & WorkerWait)
  /** The activity of call `callId` ran, or the call ended otherwise: it waits no more. */
  | { type: 'worker_back'; callId: string }
  /** The session goes on in a new workflow run (offsets go on too). */
  | { type: 'continued_as_new' }
  /** The session is over. */
  | { type: 'session_ended'; status: 'completed' | 'failed' };

/** Where and when a feed event happened. */
export interface FeedEventPlace {
  /** Position in the session's feed: 0, 1, 2, … for the whole session, across continue-as-new. */
  offset: number;
  /**
   * Workflow time of the event, in epoch milliseconds; never earlier than the event before it. Two
   * readers (one live, one replaying a closed run) may see it a few milliseconds apart where a query
   * reached the session while a local activity ran (Temporal's SDK sets the replay's clock from the
   * activity's marker).
   */
  at: number;
  /** The run it belongs to (1-based; 0 before the first run began). */
  run: number;
  /** The model turn it belongs to (0-based in the session; the next turn's index between turns). */
  turn: number;
}

/** One event of a session's live feed. */
export type FeedEvent = FeedEventPlace & FeedEventBody;

/** The `type` of a {@link FeedEvent}. */
export type FeedEventType = FeedEventBody['type'];

/** The {@link FeedEvent} of type `T`. */
export type FeedEventOf<T extends FeedEventType> = FeedEventPlace & Extract<FeedEventBody, { type: T }>;

/** Characters of a preview in the feed. */
export const feedPreviewChars = 200;

/** Largest argument or output (JSON, UTF-8 bytes) the feed shows whole; larger ones as a preview. */
export const feedValueBytes = 1_024;
