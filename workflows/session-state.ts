import { beginTurn, endRun, startRun } from '../src/rules';
import type { CompiledRuleSet, RuleState } from '../src/rules';
import { recordCall } from './record-call';
import {
  appendToLog,
  beginTurnInProgress,
  foldStoreEvent,
  foldWorkerWaitEvent,
  foldUsage,
  logWithResponse,
  settleTurnCalls,
  unhandledEvent,
} from '../src/session';
import type {
  WorkerWaitState,
  ConversationLog,
  MessageRef,
  PendingApproval,
  ResolvedSessionLimits,
  RunEndReason,
  RunningCall,
  SessionAnswer,
  SessionCounters,
  SessionCatalog,
  SessionEvent,
  SessionInput,
  SessionStatus,
  SessionStoreState,
  SessionUsage,
  TurnInProgress,
} from '../src/session';

/** What one workflow run of a session holds, as data; only {@link applyEvent} writes it. */
export interface SessionState {
  readonly sessionId: string;
  readonly input: SessionInput;
  /** The caller's rules, with the session's turn limit. */
  readonly rules: CompiledRuleSet;
  readonly limits: ResolvedSessionLimits;
  readonly interactive: boolean;
  readonly ruleState: RuleState;
  /** The conversation by reference: its messages live in the content store. */
  readonly log: ConversationLog;
  /** The key a model call stored the system prompt under; absent while it goes inline. */
  readonly systemKey?: string;
  /** Messages waiting for their run, oldest first: text as it arrived, or already stored. */
  readonly queuedMessages: readonly (string | MessageRef)[];
  readonly revealedTools: readonly string[];
  readonly counters: Readonly<SessionCounters>;
  /** Whether a run is in progress, and how many model calls it took. */
  readonly run: { readonly inProgress: boolean; readonly turns: number };
  /** 0-based index of the current turn (or of the next one, between turns): the model request's `turn`. */
  readonly turnIndex: number;
  /** The model response being dispatched, if any. */
  readonly turn: TurnInProgress | undefined;
  /** Turns begun in this workflow run (continue-as-new resets it). */
  readonly turnsThisExecution: number;
  /** Model answers and batches completed in this workflow run: continue-as-new waits for one, so it never loops. */
  readonly stepsThisExecution: number;
  /** Tokens the model calls reported: the session's and the current (or last) run's. */
  readonly usage: SessionUsage;
  readonly status: SessionStatus;
  /** The status an approval wait interrupted, restored when it ends. */
  readonly statusBeforeApproval: SessionStatus;
  readonly lastRunEnd: RunEndReason | null;
  readonly lastTool: string | null;
  /** The model's latest text in the current (or last) run, if any: the answer of a run that ends with it. */
  readonly answer: SessionAnswer | undefined;
  /** With the names in the session's `tools` the worker's registry did not have at the latest change. */
  readonly catalog: SessionCatalog;
  readonly pendingApprovals: ReadonlyMap<string, PendingApproval>;
  /** Human decisions, by call id (a call put up for approval starts undecided). */
  readonly decisions: ReadonlyMap<string, { approved: boolean; reason?: string }>;
  readonly running: ReadonlyMap<string, RunningCall>;
  /** A pending interrupt, until the run has acted on it. */
  readonly interrupt: { message?: string } | undefined;
  readonly endRequested: boolean;
  /** The content store and the operations that wait for it; the activity tools' calls that wait for a worker. */
  readonly store: SessionStoreState;
  readonly workers: WorkerWaitState;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
/** The maps of the state are changed in place, here only. */
const writable = <V>(map: ReadonlyMap<string, V>): Map<string, V> => map as Map<string, V>;

/**
 * The one writer of session state: applies `event` to `state`. The rule engine moves on here (runs,
 * turns, calls recorded in call order), and so do the log, queue, counters, status and calls.
 */
export function applyEvent(state: SessionState, event: SessionEvent): void {
  const s = state as Mutable<SessionState>;
  const counters = s.counters as Mutable<SessionCounters>;
  switch (event.type) {
    case 'message_received':
      s.queuedMessages = [...s.queuedMessages, event.message ?? event.text];
      return;
    case 'messages_stored': {
      const refs = new Map(event.stored.map(({ text, message }) => [text, message]));
      s.queuedMessages = s.queuedMessages.map((queued) =>
        typeof queued === 'string' ? (refs.get(queued) ?? queued) : queued,
      );
      return;
    }
    case 'run_started': {
      const index = s.queuedMessages.indexOf(event.queued);
      if (index >= 0) s.queuedMessages = s.queuedMessages.filter((_, at) => at !== index);
      counters.runs += 1;
      s.run = { inProgress: true, turns: 0 };
      s.usage = foldUsage(s.usage, event);
      // The rules see the message's text, else its preview (queued across continue-as-new).
      const userMessage = typeof event.queued === 'string' ? event.queued : event.message.preview;
      s.ruleState = startRun(s.rules, s.ruleState, { userMessage });
      s.turnIndex = counters.turns;
      s.log = appendToLog(s.log, [event.message]);
      s.answer = undefined;
      return;
    }
    case 'turn_started':
      if (event.resumed) {
        s.turnIndex = event.turn;
        return;
      }
      s.ruleState = beginTurn(s.rules, s.ruleState);
      if (s.ruleState.ended !== null) return; // the turn limit: the run ends without a turn
      s.turnIndex = event.turn;
      counters.turns = event.turn + 1;
      s.run = { inProgress: true, turns: s.run.turns + 1 };
      s.turnsThisExecution += 1;
      return;
    case 'catalog_changed':
      s.catalog = event.catalog;
      return;
    case 'model_call_started':
      s.status = 'thinking';
      return;
    case 'model_responded':
      s.stepsThisExecution += 1;
      s.usage = foldUsage(s.usage, event);
      s.log = logWithResponse(s.log, event.message, event.sealed);
      if (event.systemKey !== undefined) s.systemKey = event.systemKey;
      if (event.text !== undefined) s.answer = { text: event.text, message: event.message };
      if (event.prepared.length > 0)
        s.turn = beginTurnInProgress({ turnIndex: s.turnIndex, remaining: event.prepared });
      return;
    case 'end_refused':
      s.log = appendToLog(s.log, [event.message]);
      return;
    case 'verdict':
      if (event.verdict === 'blocked') counters.blockedCalls += 1;
      return;
    case 'approvals_requested':
      for (const approval of event.approvals) {
        writable(s.decisions).delete(approval.callId); // a decision on an earlier call with the same id does not carry over
        writable(s.pendingApprovals).set(approval.callId, approval);
      }
      s.statusBeforeApproval = s.status;
      s.status = 'awaiting_approval';
      return;
    case 'approval_decided': {
      const { callId, approved, reason } = event;
      writable(s.decisions).set(callId, { approved, ...(reason === undefined ? {} : { reason }) });
      writable(s.pendingApprovals).delete(callId);
      return;
    }
    case 'approvals_closed':
      for (const { callId } of event.decisions) {
        // An undecided call counts as denied: late decisions are refused from now on.
        if (!s.decisions.has(callId)) writable(s.decisions).set(callId, { approved: false });
        writable(s.pendingApprovals).delete(callId);
      }
      s.status = s.statusBeforeApproval;
      return;
    case 'batch_started':
      s.status = 'running_tools';
      return;
    case 'tool_started': {
      const { callId, tool: toolName, interruptBehavior } = event;
      writable(s.running).set(callId, { callId, toolName, interruptBehavior });
      return;
    }
    case 'tool_ended':
      writable(s.running).delete(event.callId);
      return;
    case 'batch_ended':
      for (const dispatched of event.outcomes) if (dispatched.ran) recordCall(s, dispatched);
      s.stepsThisExecution += 1;
      if (s.turn) s.turn = settleTurnCalls(s.turn, event.outcomes);
      return;
    case 'batch_cancelled': {
      const outcomes = event.outcomes.map((outcome) => ({ outcome }));
      if (s.turn) s.turn = settleTurnCalls(s.turn, outcomes);
      return;
    }
    case 'results_appended':
      s.log = appendToLog(
        s.log,
        event.results.flatMap(({ message }) => (message ? [message] : [])),
      );
      if (s.turn !== undefined) s.turn = s.turn.remaining.length === 0 ? undefined : { ...s.turn, settled: [] };
      return;
    case 'log_sealed':
      s.log = event.log;
      return;
    case 'interrupt_received':
      if (event.message !== undefined) s.queuedMessages = [event.message, ...s.queuedMessages];
      if (s.run.inProgress) s.interrupt = event.message === undefined ? {} : { message: event.message };
      return;
    case 'end_requested':
      s.endRequested = true;
      return;
    case 'run_ended':
      if (event.reason === 'answered' || event.reason === 'turn_limit' || event.reason === 'no_tool_allowed')
        s.ruleState = endRun(s.ruleState, event.reason);
      s.run = { inProgress: false, turns: 0 };
      s.turn = undefined;
      s.interrupt = undefined;
      s.lastRunEnd = event.reason;
      s.status = 'idle';
      return;
    case 'session_ended':
      s.status = event.status;
      return;
    case 'store_identified':
    case 'store_waiting':
    case 'store_back':
      ({ store: s.store, status: s.status } = foldStoreEvent(s.store, s.status, event));
      return;
    case 'worker_waiting':
    case 'worker_back':
      ({ workers: s.workers, status: s.status } = foldWorkerWaitEvent(s.workers, s.status, event));
      return;
    case 'tools_narrowed':
    case 'rule_shadowed':
    case 'model_text':
    case 'model_call_failed':
    case 'notice':
    case 'continued_as_new':
      return; // views only
    default:
      return unhandledEvent(event);
  }
}

/** Whether the session ends between runs: nothing queued, and asked to end or closing when idle. */
export function isEnding(state: SessionState): boolean {
  const closes = state.endRequested || (state.limits.closeWhenIdle && state.counters.runs > 0);
  return closes && state.queuedMessages.length === 0;
}
