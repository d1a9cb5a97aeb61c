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
import type { SessionInput } from '../src/session/session-input';
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
  createSessionState,
  note,
  setStatus,
  statusView,
  storeQueuedMessages,
} from './session-state';
import type { SessionState } from './session-state';
import { interruptRun, runTurns } from './turn';

/**
 * One agent session. Holds the rule state, takes user messages (signals), runs each message as a
 * run of turns (`turn.ts`: model call → rules → approvals → tool batches → record), answers queries
 * about its state, and continues as new when its history grows long. Ends after `endSession`, when
 * idle past `idleTimeoutMs`, or (with `closeWhenIdle`) when a run ends with nothing queued.
 */
export async function agentSession(input: SessionInput): Promise<SessionStatusView> {
  const limits = resolveSessionLimits(input.limits, input.rules.settings.maxTurnsPerRun);
  // The session's turn limit is the rule engine's: one limit, enforced (and explained) by the engine.
  const rules: CompiledRuleSet = {
    ...input.rules,
    settings: { ...input.rules.settings, maxTurnsPerRun: limits.maxTurnsPerRun },
  };
  const state = createSessionState(workflowInfo().workflowId, { ...input, rules }, limits);
  installHandlers(state);
  if (input.carried === undefined && input.firstMessage !== undefined) state.queuedMessages.push(input.firstMessage);

  try {
    if (state.run.inProgress) await runTurns(state, () => continueAsNewIfDue(state));
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
      await runTurns(state, () => continueAsNewIfDue(state));
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
 * Continue-as-new happens here, at a turn or run boundary, when the server suggests it (history too
 * long or too large) or after `continueAsNewAfterTurns` turns, once every handler has finished.
 * Carries rule state, conversation, queue, counters and the run in progress, so rules hold across
 * the boundary exactly as before. Never returns when it continues.
 */
async function continueAsNewIfDue(state: SessionState): Promise<void> {
  const info = workflowInfo();
  const due =
    info.continueAsNewSuggested ||
    info.historySize >= state.limits.continueAsNewAtHistoryBytes ||
    state.turnsThisExecution >= state.limits.continueAsNewAfterTurns;
  if (!due || state.pendingApprovals.size > 0 || state.running.size > 0) return;
  await condition(allHandlersFinished);
  await storeQueuedMessages(state);
  const { firstMessage: _firstMessage, ...input } = state.input;
  // The caller's rule set, unchanged: the limit above is derived from it again in the next run.
  await continueAsNew<typeof agentSession>({ ...input, rules: state.input.rules, carried: carriedState(state) });
}

/**
 * Signals, the update and queries. Signals never throw: a malformed payload is dropped without
 * touching the session. The update's validator refuses bad decisions before anything is written
 * to history. Queries read the state and change nothing.
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
