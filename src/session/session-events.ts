import type { Reason } from '../rules';
import type { HeldToolCatalog, PreparedCall, ToolErrorOutcome, ToolOutcome } from '../dispatch';
import type { ConversationLog, MessageRef } from './conversation-log';
import type { RunEndReason } from './session-status';
import type { ModelContextView, PendingApproval } from './session-views';
import type { ContentRef } from '../store';
import type { ModelFinishReason, ModelUsage } from '../models';
import type { ShadowVerdict } from './shadow-verdict';
import type { StoreEvent } from './store-problem';
import type { WorkerWaitEvent } from './worker-wait';

/** A tool call's outcome, and its result message when the activity that ran it already stored it. */
export interface DispatchedCall {
  outcome: ToolOutcome;
  message?: MessageRef;
}

/** A call the model proposed, as the transcript and the live feed show it. */
export interface ProposedCallView {
  callId: string;
  tool: string;
  args: unknown;
}

/** A name in the session's `tools` the worker's registry does not have, with the registered name nearest to it. */
export interface UnknownToolName {
  name: string;
  nearest?: string;
}

/**
 * The worker's tool catalog as the session holds it (`HeldToolCatalog`: names, and why a tool cannot
 * run), with the names in the session's `tools` the worker does not have (when there are any).
 */
export type SessionCatalog = HeldToolCatalog & { unknownTools?: UnknownToolName[] };

/** How the approval of one call ended. */
export type ApprovalDecision = 'approved' | 'denied' | 'timed_out' | 'interrupted';

/** One result as it joins the conversation: what the transcript shows of it. */
export interface AppendedResult {
  callId: string;
  tool: string;
  isError: boolean;
  code?: string;
  /** A preview of the result the model reads. */
  content: string;
  message?: MessageRef;
}

/**
 * Everything that happens in a session, as data. The session's state is the fold of these events
 * (`applyEvent` in `workflows/session-state.ts` is its only writer); the transcript, the queries,
 * the Temporal UI's current details and search attributes and the OpenTelemetry spans are views of
 * them. Plain JSON, in the order they happened.
 */
export type SessionEvent =
  /**
   * A user message arrived (the first message, `sendUserMessage` or `userMessage`): queued for its
   * run. `message`: it is in the content store already (a first message over 128 KiB), `text` is its preview.
   */
  | { type: 'message_received'; text: string; via: 'start' | 'update' | 'signal'; message?: MessageRef }
  /** Queued messages were written to the content store (before continue-as-new, which carries references only). */
  | { type: 'messages_stored'; stored: { text: string; message: MessageRef }[] }
  /** A run began with the queued message `queued`, now stored as `message`. */
  | { type: 'run_started'; run: number; queued: string | MessageRef; message: MessageRef }
  /**
   * Model turn `turn` (0-based in the session) began: the rules' per-turn state moved on (or ended
   * the run at its turn limit). `resumed`: the turn continue-as-new carried over goes on.
   */
  | { type: 'turn_started'; turn: number; resumed?: true }
  /**
   * The worker's tool catalog for this session changed (tools enabled, MCP servers, revealed
   * deferred tools), or the names in the session's `tools` the worker does not have did.
   */
  | { type: 'catalog_changed'; catalog: SessionCatalog }
  /** The rules narrowed the catalog: the tools the model is shown, and every hidden one with why. */
  | { type: 'tools_narrowed'; visible: string[]; hidden: { tool: string; reasons: Reason[] }[] }
  /** The model was asked, with this many tools. */
  | { type: 'model_call_started'; tools: number }
  /**
   * Shadow rules would have hidden tools at this turn's narrowing, refused or asked a human for a call
   * (after its `verdict`), or refused the answer that ends the run: what, and why. Nothing was enforced.
   */
  | ({ type: 'rule_shadowed' } & ShadowVerdict)
  /**
   * The model answered: its text (a preview), the calls it proposed (each prepared, or already an
   * error; none prepared when its finish reason stops them: cut off, refused, filtered, paused), the
   * stored response, why it stopped and the tokens it used (when the provider said);
   * `sealed`: the log's tail and the response were sealed into this segment, which now ends the log.
   */
  | {
      type: 'model_responded';
      text?: string;
      calls: ProposedCallView[];
      prepared: (PreparedCall | ToolErrorOutcome)[];
      message: MessageRef;
      shown: ModelContextView;
      sealed?: ContentRef;
      finishReason: ModelFinishReason;
      rawFinishReason?: string;
      usage?: ModelUsage;
      /** The key the model call stored the session's system prompt under, the first time one did. */
      systemKey?: string;
    }
  /**
   * Text a streaming model call wrote so far (one batch of deltas from the worker; `seq` counts an
   * attempt's batches from 1).
   */
  | { type: 'model_text'; turn: number; attempt: number; seq: number; text: string }
  /** The model call ended without an answer: interrupted, or failed after its retries. */
  | { type: 'model_call_failed'; interrupted: boolean; error?: string }
  /** The model answered with text, but the rules do not let the run end yet: it is told why (`message`). */
  | { type: 'end_refused'; text: string; message: MessageRef }
  /** The rules judged one proposed call, in call order, against the state the calls before it left. */
  | {
      type: 'verdict';
      callId: string;
      tool: string;
      verdict: 'allowed' | 'blocked';
      reasons: { code: string; message: string; callFirst?: readonly string[] }[];
    }
  /** These calls wait for a human (`approveToolCall`), until `deadline` (workflow time, epoch ms). */
  | { type: 'approvals_requested'; approvals: PendingApproval[] }
  /** A human decided one waiting call. */
  | { type: 'approval_decided'; callId: string; approved: boolean; reason?: string }
  /** The wait for approvals ended: how each asked call's approval ended, in call order. */
  | {
      type: 'approvals_closed';
      decisions: { callId: string; tool: string; decision: ApprovalDecision; reason?: string }[];
    }
  /** A batch of calls started: they run together, in one cancellation scope. */
  | { type: 'batch_started'; index: number; size: number; callIds: string[] }
  /** One call's activity was scheduled. */
  | { type: 'tool_started'; callId: string; tool: string; interruptBehavior: 'cancel' | 'block'; approved: boolean }
  /**
   * One call's activity settled (a result, an error, a cancellation). `message`: its result as the
   * activity stored it (a result's `output` is then `null` unless the rules read it).
   */
  | { type: 'tool_ended'; callId: string; tool: string; outcome: ToolOutcome; message?: MessageRef }
  /**
   * The batch's calls have their outcomes, in call order: `ran` ones are recorded by the rules
   * (in that order), the others (refused, denied, not run) only answer the model.
   */
  | { type: 'batch_ended'; index: number; outcomes: (DispatchedCall & { ran: boolean })[] }
  /** Calls that will not run (the user interrupted): their outcomes. */
  | { type: 'batch_cancelled'; outcomes: ToolErrorOutcome[] }
  /** Settled results joined the conversation, in call order. */
  | { type: 'results_appended'; results: AppendedResult[] }
  /** The log's inline tail was sealed into a segment in the content store. */
  | { type: 'log_sealed'; log: ConversationLog }
  /**
   * The user interrupted: the model call and `cancel` tools stop; `message` is queued first and
   * starts the next run.
   */
  | { type: 'interrupt_received'; message?: string }
  /** The session was asked to end once the current run is over. */
  | { type: 'end_requested' }
  /** The run ended, and why. */
  | { type: 'run_ended'; reason: RunEndReason; detail?: string }
  /** Something the session did with an input it could not take, or learned about a tool: a transcript notice. */
  | { type: 'notice'; text: string }
  /** This workflow run continues as a new one (the session goes on). */
  | { type: 'continued_as_new' }
  /** The session is over. */
  | { type: 'session_ended'; status: 'completed' | 'failed' }
  /** The content store: its identity recorded, an operation waiting for it, or done waiting. */
  | StoreEvent
  | WorkerWaitEvent;

/** The `type` of a {@link SessionEvent}. */
export type SessionEventType = SessionEvent['type'];

/** The {@link SessionEvent} of type `T`. */
export type SessionEventOf<T extends SessionEventType> = Extract<SessionEvent, { type: T }>;
