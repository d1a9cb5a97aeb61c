import {
  ApplicationFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import { describeRuleState } from '../src/rules';
import type { CompiledRuleSet } from '../src/rules';
import { resolveSessionLimits } from '../src/session/session-input';
import type { CarriedTurn, SessionInput } from '../src/session/session-input';
import type { MessageRef } from '../src/conversation/conversation-log';
import {
  approveToolCallUpdate,
  endSessionSignal,
  interruptSignal,
  ruleStateQuery,
  statusQuery,
  transcriptQuery,
  sendUserMessageUpdate,
  userMessageSignal,
} from '../src/session/session-messages';
import type { ApproveToolCallInput, UserMessageInput } from '../src/session/session-messages';
import { utf8ByteLength } from '../src/conversation/utf8';
import type { SessionStatusView } from '../src/session/session-views';
import {
  beginRun,
  carriedState,
  catalogNames,
  continueAsNewDue,
  createSessionState,
  note,
  setStatus,
  statusView,
  storeMessages,
} from './session-state';
import type { SessionState } from './session-state';
import { runTurns } from './turn';

/**
 * One agent session. Holds the rule state, takes user messages (signals), runs each message as a
 * run of turns (`turn.ts`: model call → rules → approvals → tool batches → record), answers queries
 * about its state, and continues as new when its history grows long. Ends after `endSession`, when
 * idle past `idleTimeoutMs`, or (with `closeWhenIdle`) when a run ends with nothing queued.
 */
/** Largest turn in progress that continue-as-new carries, in UTF-8 bytes of its JSON. */
const maxCarriedTurnBytes = 131_072;

export async function agentSession(input: SessionInput): Promise<SessionStatusView> {
  const limits = resolveSessionLimits(input.limits, input.rules.settings.maxTurnsPerRun, input.interactive);
  // The session's turn limit is the rule engine's: one limit, enforced (and explained) by the engine.
  const rules: CompiledRuleSet = {
    ...input.rules,
    settings: { ...input.rules.settings, maxTurnsPerRun: limits.maxTurnsPerRun },
  };
  const state = createSessionState(workflowInfo().workflowId, { ...input, rules }, limits);
  installHandlers(state);
  if (input.carried === undefined && input.firstMessage !== undefined) state.queuedMessages.push(input.firstMessage);

  try {
    const continueIfDue = (turn?: CarriedTurn): Promise<void> => continueAsNewIfDue(state, turn);
    if (state.run.inProgress) await runTurns(state, continueIfDue, input.carried?.turn);
    for (;;) {
      setStatus(state, 'idle');
      if (state.queuedMessages.length === 0) {
        if (state.endRequested || (limits.closeWhenIdle && state.counters.runs > 0)) break;
        const woke = await condition(() => state.queuedMessages.length > 0 || state.endRequested, limits.idleTimeoutMs);
        if (!woke || state.queuedMessages.length === 0) break;
      }
      await continueAsNewIfDue(state);
      const next = state.queuedMessages.shift();
      if (next !== undefined) await beginRun(state, next);
      await runTurns(state, continueIfDue);
    }
  } catch (error) {
    // A failure the workflow raises itself (e.g. a misconfigured model) is shown as `failed` before it surfaces.
    if (error instanceof ApplicationFailure) setStatus(state, 'failed');
    throw error;
  }
  setStatus(state, 'completed');
  await condition(allHandlersFinished);
  return statusView(state);
}

/**
 * Continue-as-new happens here: between runs, before each turn and between the batches of a turn,
 * when it is due (`continueAsNewDue`), once every handler has finished. Carries rule state, the
 * conversation's references, queue, counters, the run and the turn in progress (when its remaining
 * calls fit in 128 KiB; else the turn finishes in this run), so rules hold across the boundary
 * exactly as before. Never returns when it continues.
 */
async function continueAsNewIfDue(state: SessionState, turn?: CarriedTurn): Promise<void> {
  if (!continueAsNewDue(state)) return;
  if (turn !== undefined && utf8ByteLength(JSON.stringify(turn)) > maxCarriedTurnBytes) return;
  await condition(allHandlersFinished);
  await storeQueuedMessages(state);
  const { firstMessage: _firstMessage, ...input } = state.input;
  // The caller's rule set, unchanged: the limit above is derived from it again in the next run.
  const carried = { ...carriedState(state), ...(turn === undefined ? {} : { turn }) };
  await continueAsNew<typeof agentSession>({ ...input, rules: state.input.rules, carried });
}

/** Stores the queued messages that are still inline text, so continue-as-new carries references only. */
async function storeQueuedMessages(state: SessionState): Promise<void> {
  for (;;) {
    const inline = state.queuedMessages.filter((queued): queued is string => typeof queued === 'string');
    if (inline.length === 0) return;
    const refs = await storeMessages(
      state,
      inline.map((text) => ({ role: 'user', text })),
    );
    // Messages that arrived while these were stored stay inline for the next round.
    const refOf = (text: string): MessageRef | string => refs[inline.indexOf(text)] ?? text;
    state.queuedMessages = state.queuedMessages.map((queued) => (typeof queued === 'string' ? refOf(queued) : queued));
  }
}

/**
 * Acts on a user interrupt at once: cancels the model call in flight and every running call whose
 * `interruptBehavior` is `cancel` (`block` calls finish), and queues the interrupt's message to
 * start the next run. The turn sees `state.interrupt` and ends the run.
 */
export function interruptRun(state: SessionState, request: { message?: string }): void {
  if (request.message !== undefined) state.queuedMessages.unshift(request.message);
  if (!state.run.inProgress) return;
  state.interrupt = request;
  state.modelScope?.cancel();
  for (const call of state.running.values()) {
    if (call.prepared.interruptBehavior === 'cancel') {
      call.interrupted = true;
      call.scope.cancel();
    }
  }
}

/**
 * Signals, updates and queries. Signals never throw: a malformed payload is dropped with a notice.
 * Update validators refuse bad input before anything is written to history. Queries change nothing.
 */
function installHandlers(state: SessionState): void {
  setHandler(
    userMessageSignal,
    (input) => {
      const problem = messageProblem(state, input?.text);
      if (problem === undefined) state.queuedMessages.push(input.text);
      else note(state, { kind: 'notice', text: `[toolrail] dropped a userMessage signal: ${problem}` });
    },
    { description: 'A user message. Starts a run, or waits for running tools and then starts the next run.' },
  );
  setHandler(
    sendUserMessageUpdate,
    ({ text }) => {
      state.queuedMessages.push(text);
      return { queuedBefore: state.queuedMessages.length - 1 };
    },
    {
      validator: (input: UserMessageInput) => {
        const problem = messageProblem(state, input?.text);
        if (problem !== undefined) throw new TypeError(problem);
      },
      description: `A user message, refused when empty or over limits.maxUserMessageBytes (UTF-8 bytes).`,
    },
  );
  // Where an interrupt lands: `interruptRun` cancels the model call and the running `cancel` tools.
  setHandler(
    interruptSignal,
    (input) => {
      const message = input?.message;
      const problem = message === undefined ? undefined : messageProblem(state, message);
      if (problem !== undefined)
        note(state, { kind: 'notice', text: `[toolrail] dropped an interrupt's message: ${problem}` });
      interruptRun(state, message === undefined || problem !== undefined ? {} : { message });
    },
    {
      description:
        'Stops the model call and every running tool whose interruptBehavior is cancel; block tools finish first. An optional message starts the next run.',
    },
  );
  setHandler(
    endSessionSignal,
    () => {
      state.endRequested = true;
    },
    { description: 'Ends the session once the current run is over.' },
  );
  setHandler(
    approveToolCallUpdate,
    ({ callId, approved, reason }) => {
      state.decisions.set(callId, { approved, ...(reason === undefined ? {} : { reason }) });
      state.pendingApprovals.delete(callId);
      return { callId, decision: approved ? 'approved' : 'denied' };
    },
    {
      validator: (input: ApproveToolCallInput) => validateApproval(state, input),
      description: 'Approves or denies a tool call that waits for a human: { callId, approved, reason? }.',
    },
  );
  setHandler(
    ruleStateQuery,
    () => ({
      rules: describeRuleState(state.rules, state.ruleState, catalogNames(state)),
      pendingApprovals: [...state.pendingApprovals.values()],
      runningCalls: [...state.running.values()].map(({ prepared }) => ({
        callId: prepared.callId,
        toolName: prepared.toolName,
        interruptBehavior: prepared.interruptBehavior,
      })),
    }),
    {
      description:
        'Rule state: visible tools, every hidden tool with its reasons, sequence positions, forbidden tools, counts, pending approvals and running calls.',
    },
  );
  setHandler(transcriptQuery, () => state.transcript, {
    description:
      'The session turn by turn: user messages, visible tools, proposed calls, verdicts with reasons, approvals and tool results.',
  });
  setHandler(statusQuery, () => statusView(state), {
    description:
      'Status (idle, thinking, running_tools, awaiting_approval, completed, failed), counters and why the last run ended.',
  });
}

/** Why a user message is refused (not a string, blank, over the byte limit), or `undefined` when it is fine. */
function messageProblem(state: SessionState, text: unknown): string | undefined {
  if (typeof text !== 'string') return 'the message must be a string';
  if (text.trim() === '') return 'the message is empty';
  const bytes = utf8ByteLength(text);
  const limit = state.limits.maxUserMessageBytes;
  if (bytes > limit)
    return `the message is ${bytes} bytes (UTF-8); this session takes at most ${limit} bytes (limits.maxUserMessageBytes)`;
  return undefined;
}

/** Rejects (before anything is written to history) approvals of unknown, decided or malformed calls. */
function validateApproval(state: SessionState, input: ApproveToolCallInput): void {
  if (typeof input !== 'object' || input === null)
    throw new TypeError('approveToolCall needs { callId, approved, reason? }');
  if (typeof input.callId !== 'string' || input.callId === '') throw new TypeError('callId must be a non-empty string');
  if (typeof input.approved !== 'boolean') throw new TypeError('approved must be true or false');
  if (input.reason !== undefined && typeof input.reason !== 'string') throw new TypeError('reason must be a string');
  if (state.decisions.has(input.callId)) throw new Error(`call ${input.callId} was already decided`);
  if (!state.pendingApprovals.has(input.callId)) {
    const known = [...state.pendingApprovals.keys()];
    throw new Error(
      `no call ${input.callId} waits for approval${known.length ? `; waiting: ${known.join(', ')}` : ' (none waits now)'}`,
    );
  }
}
