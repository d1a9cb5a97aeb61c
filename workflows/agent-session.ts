import { ApplicationFailure, allHandlersFinished, condition, continueAsNew, workflowInfo } from '@temporalio/workflow';
import type { CompiledRuleSet } from '../src/rules';
import { carriedTurn, resolveSessionLimits } from '../src/session';
import type { CarriedSessionState, SessionInput, SessionStatusView } from '../src/session';
import { utf8ByteLength } from '../src/text';
import { changeCatalog } from './change-catalog';
import { feedView, installFeedHandlers } from './feed-view';
import { publishFeedEvent } from './publish-live';
import { createSession } from './session';
import type { Session } from './session';
import { logIsFull, sealLog, storeMessages, storeQueuedMessages, storedAs } from './store-messages';
import { installHandlers } from './install-handlers';
import { parentReports } from './parent-reports';
import { sessionSpans } from './session-spans';
import { createSessionState } from './create-session-state';
import { isEnding } from './session-state';
import type { SessionState } from './session-state';
import { startInput } from './start-input';
import { statusView } from './status-view';
import { temporalUiView } from './temporal-ui-view';
import { transcriptView } from './transcript-view';
import { appendResults, runTurn } from './turn';
import { beginSessionHere } from './with-store';

/** Largest turn in progress that continue-as-new carries, in UTF-8 bytes of its JSON. */
const maxCarriedTurnBytes = 131_072;

/**
 * One agent session. Holds the rule state, takes user messages (signals and updates), runs each
 * message as a run of turns (`turn.ts`), answers queries about its state, and continues as new
 * when its history grows long (here, and only here). Ends after `endSession`, when idle past
 * `idleTimeoutMs`, or (with `closeWhenIdle`) when a run ends with nothing queued.
 */
export async function agentSession(input: SessionInput): Promise<SessionStatusView> {
  const session = openSession(startInput(input));
  const { state } = session;
  try {
    if (state.store.identity === undefined) await beginNewSession(session);
    if (state.run.inProgress) await runTurns(session);
    for (;;) {
      if (isEnding(state)) break;
      if (state.queuedMessages.length === 0) {
        const woke = await condition(
          () => state.queuedMessages.length > 0 || state.endRequested,
          state.limits.idleTimeoutMs,
        );
        if (!woke || state.queuedMessages.length === 0) break;
      }
      if (continueAsNewDue(state)) await continueAsNewNow(session);
      await beginRun(session);
      await runTurns(session);
    }
  } catch (error) {
    // A failure the workflow raises itself (e.g. a misconfigured model) is shown as `failed` before it surfaces.
    if (error instanceof ApplicationFailure) session.emit({ type: 'session_ended', status: 'failed' });
    throw error;
  }
  // A session whose last run ended in a model failure did not do what it was asked: it never shows `completed`.
  session.emit({ type: 'session_ended', status: state.lastRunEnd === 'model_error' ? 'failed' : 'completed' });
  await condition(allHandlersFinished);
  return statusView(state);
}

/** The session of this workflow run: its state (fresh, or carried over), views, spans and handlers. */
function openSession(input: SessionInput): Session {
  const limits = resolveSessionLimits(input.limits, input.rules.settings.maxTurnsPerRun, input.interactive);
  // The session's turn limit is the rule engine's: one limit, enforced (and explained) by the engine.
  const rules: CompiledRuleSet = {
    ...input.rules,
    settings: { ...input.rules.settings, maxTurnsPerRun: limits.maxTurnsPerRun },
  };
  const state = createSessionState(workflowInfo().workflowId, input, rules, limits);
  const ui = temporalUiView();
  const transcript = transcriptView(input.carried?.transcript ?? [], input.carried?.transcriptStart);
  const feed = feedView(input.carried?.feed, { windowBytes: limits.feedWindowBytes, onAppend: publishFeedEvent });
  const session = createSession(state, { transcript, feed }, [ui.onEvent, ...parentReports(input)], sessionSpans());
  installHandlers(session);
  installFeedHandlers(session);
  if (input.carried === undefined && input.firstMessage !== undefined)
    session.emit({ type: 'message_received', text: input.firstMessage, via: 'start' });
  else if (input.carried === undefined && input.firstMessageRef !== undefined) {
    const message = input.firstMessageRef;
    session.emit({ type: 'message_received', text: message.preview, via: 'start', message });
  }
  if (!state.run.inProgress) ui.firstLook(state);
  return session;
}

/**
 * A new session's first look at its worker, in one local activity: the identity of its content
 * store, which the session records (from then on only workers with that store serve it), the
 * messages queued inline (its first message) stored there, and the first turn's catalog.
 */
async function beginNewSession(session: Session): Promise<void> {
  const { state } = session;
  const inline = state.queuedMessages.filter((queued): queued is string => typeof queued === 'string');
  const began = await beginSessionHere(session, {
    sessionId: state.sessionId,
    messages: inline.map((text) => ({ role: 'user', text })),
    tools: state.input.tools,
  });
  session.emit({ type: 'store_identified', store: began.store });
  if (inline.length > 0) session.emit({ type: 'messages_stored', stored: storedAs(inline, began.messages) });
  changeCatalog(session, began.catalog);
}

/**
 * Starts a run with the next queued user message: it is stored and joins the conversation, and the
 * rules start a run.
 */
async function beginRun(session: Session): Promise<void> {
  const { state } = session;
  const queued = state.queuedMessages[0];
  if (queued === undefined) return;
  const [message] =
    typeof queued === 'string' ? await storeMessages(session, [{ role: 'user', text: queued }]) : [queued];
  if (message === undefined) throw new Error('the content store returned no reference for the user message');
  session.emit({ type: 'run_started', run: state.counters.runs + 1, queued, message });
  if (logIsFull(session.state)) await sealLog(session);
}

/**
 * The turns of one run, until it ends (an answer the rules accept, a terminal tool, the turn
 * limit, no tool allowed, a model failure, an interrupt, or a new user message, which starts the
 * next run). Before each turn and between the batches of one, the session may continue as new.
 */
async function runTurns(session: Session): Promise<void> {
  const { state } = session;
  for (;;) {
    if (state.turn === undefined) {
      if (state.run.turns > 0 && state.queuedMessages.length > 0)
        return session.emit({ type: 'run_ended', reason: 'new_message' });
      if (continueAsNewDue(state)) await continueAsNewNow(session);
    }
    const turn = runTurn(session);
    let step = await turn.next();
    while (step.done !== true) {
      if (continueAsNewDue(state)) await continueAsNewNow(session);
      step = await turn.next();
    }
    const end = step.value;
    if (end !== undefined) return session.emit({ type: 'run_ended', ...end });
  }
}

/**
 * Continue-as-new happens here, and only here: before a run, before each turn and between the
 * batches of a turn, when it is due (`continueAsNewDue`, which the callers ask first, so a turn
 * that does not continue as new awaits nothing here), once every handler has finished. Carries
 * the rule state, the conversation's references, the queue (stored first), counters, the latest
 * transcript, the run and the turn in progress (when its remaining calls fit in 128 KiB; else the
 * turn finishes in this run), so rules hold across the boundary exactly as before. Never returns
 * when it continues.
 */
async function continueAsNewNow(session: Session): Promise<void> {
  const { state } = session;
  // The results settled so far join the conversation first: the next run carries only the calls to come.
  await appendResults(session);
  const turn = state.turn;
  if (turn !== undefined && utf8ByteLength(JSON.stringify(carriedTurn(turn))) > maxCarriedTurnBytes) return;
  await condition(allHandlersFinished);
  await storeQueuedMessages(session);
  session.emit({ type: 'continued_as_new' });
  const { firstMessage: _firstMessage, firstMessageRef: _firstMessageRef, carried: _carried, ...next } = state.input;
  // The caller's rule set, unchanged: the limit above is derived from it again in the next run.
  await continueAsNew<typeof agentSession>({ ...next, carried: carriedState(session) });
}

/**
 * Whether to continue as new now: the server suggests it, or a limit passed; after progress (never
 * a loop), with nothing running or waiting.
 */
function continueAsNewDue(state: SessionState): boolean {
  const { continueAsNewSuggested, historySize } = workflowInfo();
  const due =
    continueAsNewSuggested ||
    historySize >= state.limits.continueAsNewAtHistoryBytes ||
    state.turnsThisExecution >= state.limits.continueAsNewAfterTurns;
  return due && state.stepsThisExecution > 0 && state.pendingApprovals.size === 0 && state.running.size === 0;
}

/** What continue-as-new carries into the next run, so rules hold exactly as before (and the views go on). */
function carriedState({ state, transcript, feed }: Session): CarriedSessionState {
  const { turn } = state;
  return {
    ruleState: state.ruleState,
    log: state.log,
    queuedMessages: [...state.queuedMessages],
    revealedTools: [...state.revealedTools],
    counters: { ...state.counters, continuedAsNew: state.counters.continuedAsNew + 1 },
    ...transcript.carried(),
    feed: feed.carried(),
    runInProgress: state.run.inProgress,
    turnsInRun: state.run.turns,
    ...(turn === undefined ? {} : { turn: carriedTurn(turn) }),
    usage: state.usage,
    ...(state.store.identity === undefined ? {} : { store: state.store.identity }),
    ...(state.systemKey === undefined ? {} : { systemKey: state.systemKey }),
  };
}
