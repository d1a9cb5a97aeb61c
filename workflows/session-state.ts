import { proxyLocalActivities, setCurrentDetails, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { CancellationScope } from '@temporalio/workflow';
import { endRun as endRuleRun, initialRuleState, narrow, record, startRun } from '../src/rules';
import type { CompiledRuleSet, NarrowResult, RuleState } from '../src/rules';
import { readRevealedTools } from '../src/dispatch';
import type { PreparedCall, ToolCatalog, ToolOutcome } from '../src/dispatch';
import {
  appendToLog,
  segmentEntries,
  sessionSearchAttributes,
  freshCarriedState,
  maxCarriedTranscriptEntries,
  maxTranscriptEntries,
  renderCurrentDetails,
  emptyUsageTotals,
} from '../src/session';
import type {
  ConversationLog,
  MessageRef,
  CarriedSessionState,
  ResolvedSessionLimits,
  SessionCounters,
  SessionInput,
  RunEndReason,
  SessionStatus,
  PendingApproval,
  SessionStatusView,
  TranscriptEntry,
  TranscriptNote,
} from '../src/session';
import type { ConversationMessage } from '../src/models';
import type { SessionActivities } from '../activities';

/** A call whose activity runs now, with the scope that cancels it. */
export interface RunningCall {
  prepared: PreparedCall;
  scope: CancellationScope;
  /** Set when the user's interrupt cancelled it (as opposed to a failing sibling). */
  interrupted: boolean;
}

/**
 * Everything one workflow run holds: what continue-as-new carries (rule state, conversation, queue,
 * counters, transcript, the run in progress) and what lives only in this run (status, catalog,
 * approvals, running calls, an interrupt). Plain data: only the transitions below change the status.
 */
export interface SessionState {
  readonly sessionId: string;
  readonly input: SessionInput;
  readonly rules: CompiledRuleSet;
  readonly limits: ResolvedSessionLimits;
  readonly interactive: boolean;

  ruleState: RuleState;
  /** The conversation by reference: its messages live in the content store. */
  log: ConversationLog;
  /** Messages waiting for their run, oldest first: text as it arrived, or already stored. */
  queuedMessages: (string | MessageRef)[];
  revealedTools: string[];
  readonly counters: SessionCounters;
  readonly transcript: TranscriptEntry[];
  /** Whether a run is in progress, and how many model calls it took. */
  run: { inProgress: boolean; turns: number };
  /** 0-based index of the current turn (or of the next one, between turns): the model request's `turn`. */
  turnIndex: number;
  /** Turns taken in this workflow run (continue-as-new resets it). */
  turnsThisExecution: number;
  /** Model calls and batches completed in this workflow run: continue-as-new waits for one, so it never loops. */
  stepsThisExecution: number;
  usage: NonNullable<CarriedSessionState['usage']>; // tokens: the session's and the current (or last) run's

  /** Read it freely; change it only through {@link setStatus}. */
  readonly status: SessionStatus;
  lastRunEnd: RunEndReason | null;
  lastTool: string | null;
  catalog: ToolCatalog;
  readonly pendingApprovals: Map<string, PendingApproval>;
  /** Human decisions, by call id (a call put up for approval starts undecided). */
  readonly decisions: Map<string, { approved: boolean; reason?: string }>;
  readonly running: Map<string, RunningCall>;
  modelScope: CancellationScope | undefined;
  /** A pending interrupt, until the run has acted on it. */
  interrupt: { message?: string } | undefined;
  endRequested: boolean;
}

/** The state of a new workflow run: fresh, or what continue-as-new carried. */
export function createSessionState(
  sessionId: string,
  input: SessionInput,
  limits: ResolvedSessionLimits,
): SessionState {
  const carried = input.carried ?? freshCarriedState(initialRuleState(input.rules));
  return {
    sessionId,
    input,
    rules: input.rules,
    limits,
    interactive: input.interactive ?? true,
    ruleState: carried.ruleState,
    log: carried.log,
    queuedMessages: carried.queuedMessages,
    revealedTools: carried.revealedTools,
    counters: carried.counters,
    transcript: carried.transcript,
    run: { inProgress: carried.runInProgress, turns: carried.turnsInRun },
    turnIndex: carried.counters.turns,
    turnsThisExecution: 0,
    stepsThisExecution: 0,
    usage: carried.usage ?? { session: emptyUsageTotals, run: emptyUsageTotals },
    status: 'idle',
    lastRunEnd: null,
    lastTool: null,
    catalog: { version: '', tools: [], hiddenDeferredTools: [] },
    pendingApprovals: new Map(),
    decisions: new Map(),
    running: new Map(),
    modelScope: undefined,
    interrupt: undefined,
    endRequested: false,
  };
}

/** The one place the status changes: it is published to the search attributes and the UI at once. */
export function setStatus(state: SessionState, status: SessionStatus): void {
  (state as { status: SessionStatus }).status = status;
  publishSessionState(state);
}

/** Adds a transcript line stamped with the current turn's index; the oldest lines go past {@link maxTranscriptEntries}. */
export function note(state: SessionState, entry: TranscriptNote): void {
  state.transcript.push({ ...entry, turn: state.turnIndex });
  if (state.transcript.length > maxTranscriptEntries)
    state.transcript.splice(0, state.transcript.length - maxTranscriptEntries);
}

/** Starts a run with the next queued user message: the rules start a run, the message joins the conversation. */
export async function beginRun(state: SessionState, queued: string | MessageRef): Promise<void> {
  const [ref] = typeof queued === 'string' ? await storeMessages(state, [{ role: 'user', text: queued }]) : [queued];
  if (ref === undefined) throw new Error('the content store returned no reference for the user message');
  state.counters.runs += 1;
  state.run = { inProgress: true, turns: 0 };
  state.usage = { ...state.usage, run: emptyUsageTotals };
  // The rules see the message's text when it is at hand, else its preview (a message queued across continue-as-new).
  state.ruleState = startRun(state.rules, state.ruleState, {
    userMessage: typeof queued === 'string' ? queued : ref.preview,
  });
  state.turnIndex = state.counters.turns;
  await appendMessages(state, [ref]);
  note(state, { kind: 'user', text: ref.preview, ref });
}

/**
 * Appends stored messages to the conversation; once the log's inline tail is full it is sealed
 * into a segment in the content store, so what the workflow holds stays bounded.
 */
export async function appendMessages(state: SessionState, refs: readonly MessageRef[]): Promise<void> {
  state.log = appendToLog(state.log, refs);
  if (state.log.tail.length >= segmentEntries) {
    state.log = await contentActivities.sealLog({ sessionId: state.sessionId, log: state.log });
  }
}

/** Writes messages to the content store (a local activity: only their references enter the history). */
export function storeMessages(state: SessionState, messages: ConversationMessage[]): Promise<MessageRef[]> {
  return contentActivities.storeMessages({ sessionId: state.sessionId, messages });
}

/** Ends the run: the rule engine records the ends it knows of, the transcript says why, the status goes idle. */
export function endRun(state: SessionState, reason: RunEndReason, detail?: string): void {
  if (reason === 'answered' || reason === 'turn_limit' || reason === 'no_tool_allowed') {
    state.ruleState = endRuleRun(state.ruleState, reason);
  }
  state.run = { inProgress: false, turns: 0 };
  state.interrupt = undefined;
  state.lastRunEnd = reason;
  note(state, { kind: 'run-end', reason, ...(detail === undefined ? {} : { detail }) });
  setStatus(state, 'idle');
}

/** Records a call that ran: the engine advances on its outcome (failures count as attempts but satisfy nothing); counters, the last tool and revealed deferred tools follow. */
export function recordCall(state: SessionState, call: PreparedCall, outcome: ToolOutcome): void {
  state.ruleState = record(state.rules, state.ruleState, {
    tool: call.toolName,
    args: call.input,
    result: outcome.type === 'tool-result' ? outcome.output : null,
    error: outcome.type === 'tool-error',
  });
  state.counters.toolCalls += 1;
  state.lastTool = call.toolName;
  for (const name of readRevealedTools(outcome))
    if (!state.revealedTools.includes(name)) state.revealedTools.push(name);
}

/** Whether to continue as new now: the server suggests it, or a limit passed; after progress (never a loop), with nothing running or waiting. */
export function continueAsNewDue(state: SessionState): boolean {
  const { continueAsNewSuggested, historySize } = workflowInfo();
  const due =
    continueAsNewSuggested ||
    historySize >= state.limits.continueAsNewAtHistoryBytes ||
    state.turnsThisExecution >= state.limits.continueAsNewAfterTurns;
  return due && state.stepsThisExecution > 0 && state.pendingApprovals.size === 0 && state.running.size === 0;
}

/** The names in this turn's catalog, in catalog order. */
export function catalogNames(state: SessionState): string[] {
  return state.catalog.tools.map((tool) => tool.name);
}

/** What continue-as-new carries into the next run, so rules hold exactly as before. */
export function carriedState(state: SessionState): CarriedSessionState {
  return {
    ruleState: state.ruleState,
    log: state.log,
    queuedMessages: state.queuedMessages,
    revealedTools: state.revealedTools,
    counters: { ...state.counters, continuedAsNew: state.counters.continuedAsNew + 1 },
    transcript: state.transcript.slice(-maxCarriedTranscriptEntries),
    runInProgress: state.run.inProgress,
    turnsInRun: state.run.turns,
    usage: state.usage,
  };
}

/** The answer of the `status` query, and the workflow's result. */
export function statusView(state: SessionState): SessionStatusView {
  const { status, lastRunEnd, lastTool, counters, usage } = state;
  return { status, lastRunEnd, lastTool, counters, queuedMessages: state.queuedMessages.length, usage };
}

const published = new WeakMap<SessionState, string>();

/** Shows the session in the Temporal UI: its search attributes (upserted when they changed) and the current details. */
export function publishSessionState(state: SessionState): void {
  const { status, lastTool, counters, lastRunEnd, run } = state;
  const pendingApprovals = [...state.pendingApprovals.values()];
  const attributes = sessionSearchAttributes({ status, lastTool, counters, pendingApprovals, usage: state.usage });
  const fingerprint = JSON.stringify(attributes.map(({ value }) => value));
  if (published.get(state) !== fingerprint) upsertSearchAttributes(attributes);
  published.set(state, fingerprint);
  const narrowed = (): NarrowResult => narrow(state.rules, state.ruleState, catalogNames(state));
  const view = { status, counters, pendingApprovals, lastRunEnd, runInProgress: run.inProgress, narrowed };
  setCurrentDetails(renderCurrentDetails(view));
}

/** Content store writes: local activities, whose inputs never enter the history (only the references they return). */
const contentActivities = proxyLocalActivities<SessionActivities>({
  startToCloseTimeout: 60_000,
  retry: { maximumAttempts: 10, initialInterval: 500, backoffCoefficient: 2, maximumInterval: 10_000 },
});
