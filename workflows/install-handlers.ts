import {
  ApplicationFailure,
  log,
  setDefaultQueryHandler,
  setDefaultSignalHandler,
  setDefaultUpdateHandler,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import { describeRuleState, startRun } from '../src/rules';
import { utf8ByteLength } from '../src/text';
import {
  endSessionSignal,
  interruptSignal,
  ruleStateQuery,
  sendUserMessageUpdate,
  statusQuery,
  transcriptQuery,
  userMessageSignal,
  undecodableEncoding,
  readMessageInput,
  readPageRequest,
  ruleStatePage,
  toolCallFinishedLateSignal,
  unknownMessageText,
} from '../src/session';
import type { SessionRuleStateView, UserMessageInput } from '../src/session';
import { installApprovals } from './batch';
import { publishCancelledCalls } from './publish-live';
import { catalogNames } from './narrowed-catalog';
import { refusedUpdate } from './refused-update';
import type { Session } from './session';
import type { SessionState } from './session-state';
import { currentStoreProblem, statusView, unavailableTools } from './status-view';

/**
 * Acts on a user interrupt at once: cancels the model call in flight and every running call whose
 * `interruptBehavior` is `cancel` (`block` calls finish), and queues the interrupt's message to
 * start the next run. The turn sees the interrupt in the state and ends the run.
 */
export function interruptRun(session: Session, request: { message?: string }): void {
  const { state, scopes } = session;
  session.emit({ type: 'interrupt_received', ...request });
  if (!state.run.inProgress) return;
  const model = scopes.model !== undefined;
  scopes.model?.cancel();
  const callIds: string[] = [];
  for (const [callId, running] of scopes.calls) {
    if (state.running.get(callId)?.interruptBehavior === 'cancel') {
      running.interrupted = true;
      running.scope.cancel();
      callIds.push(callId);
    }
  }
  publishCancelledCalls({ callIds, model });
}

/**
 * Signals, updates and queries. Signals never throw: a malformed payload is dropped with a notice.
 * Update validators refuse bad input before anything is written to history. Queries change nothing.
 * Approvals are in `batch.ts`, with the wait for them.
 */
export function installHandlers(session: Session): void {
  const { state } = session;
  setHandler(
    userMessageSignal,
    (input) => {
      const read = readMessageInput('userMessage', input);
      const problem = read.ok
        ? messageProblem(state, read.value.text)
        : `${read.problem}; userMessage takes { text: string }`;
      if (read.ok && problem === undefined)
        session.emit({ type: 'message_received', text: read.value.text, via: 'signal' });
      else warnWithNotice(session, `dropped a userMessage signal: ${problem}`);
    },
    { description: 'A user message { text }. Starts a run, or waits for running tools and then starts the next run.' },
  );
  setHandler(
    sendUserMessageUpdate,
    ({ text }) => {
      session.emit({ type: 'message_received', text, via: 'update' });
      return { queuedBefore: state.queuedMessages.length - 1, offset: session.feed.last() };
    },
    {
      validator: (input: UserMessageInput) => {
        const read = readMessageInput('sendUserMessage', input);
        const problem = read.ok ? messageProblem(state, read.value.text) : read.problem;
        if (problem !== undefined) throw refusedUpdate('sendUserMessage', problem);
      },
      description: `A user message { text }, refused when empty or over limits.maxUserMessageBytes (UTF-8 bytes).`,
    },
  );
  // Where an interrupt lands: `interruptRun` cancels the model call and the running `cancel` tools.
  setHandler(
    interruptSignal,
    (input) => {
      const read = readMessageInput('interrupt', input);
      const takes = 'interrupt takes nothing or { text?: string }';
      if (!read.ok) return warnWithNotice(session, `dropped an interrupt signal: ${read.problem}; ${takes}`);
      // `text`, as userMessage names it; `message` is its older name, still taken.
      const { text, message } = read.value;
      if (text !== undefined && message !== undefined && text !== message)
        return warnWithNotice(session, `dropped an interrupt signal: give text (or its older name message), not both`);
      const next = text ?? message;
      const problem = next === undefined ? undefined : messageProblem(state, next);
      if (problem !== undefined) return warnWithNotice(session, `dropped an interrupt signal: ${problem}`);
      interruptRun(session, next === undefined ? {} : { message: next });
    },
    {
      description:
        'Stops the model call and every running tool whose interruptBehavior is cancel; block tools finish first. An optional { text } starts the next run.',
    },
  );
  setHandler(
    toolCallFinishedLateSignal,
    (input) => {
      if (dropUndecodable(session, 'toolCallFinishedLate', input)) return;
      if (typeof input?.callId !== 'string' || typeof input.toolName !== 'string') return;
      const call = `${input.toolName} call ${input.callId}`;
      const ended = input.outcome === 'completed' ? 'completed' : 'failed';
      warnWithNotice(
        session,
        input.outcome === 'still-running'
          ? `${call} did not stop: it was still running when the session moved on and may still apply its effect`
          : `${call} finished late, after the session moved on (${ended}): ${String(input.summary ?? '')}`,
      );
    },
    { description: 'From the worker: a tool that ignored its abort signal is still running, or finished late.' },
  );
  setHandler(endSessionSignal, () => session.emit({ type: 'end_requested' }), {
    description: 'Ends the session once the current run is over.',
  });
  installApprovals(session);
  // A name toolrail does not know: the signal is noted and dropped; the update is noted (an accepted
  // update, so the note replays) and refused; the query is refused. Each says the nearest known name.
  setDefaultSignalHandler((name) =>
    warnWithNotice(session, `ignored a signal: ${unknownMessageText('signals', name)}`),
  );
  setDefaultUpdateHandler((name) => {
    const text = unknownMessageText('updates', name);
    warnWithNotice(session, `refused an update: ${text}`);
    throw ApplicationFailure.nonRetryable(text, 'UnknownUpdate');
  });
  setDefaultQueryHandler((name) => {
    throw new ReferenceError(unknownMessageText('queries', name));
  });
  // Answers are paged (a cursor, a byte cap): none is ever large enough for External Storage, which
  // other clients cannot read.
  setHandler(
    ruleStateQuery,
    (request) => {
      const { cursor, maxBytes } = readPageRequest('ruleState', request);
      // Between runs, the state the next run starts from: what it will allow.
      const ended = state.status === 'completed' || state.status === 'failed';
      const phase = state.run.inProgress ? 'run' : ended ? 'ended' : 'between-runs';
      const ruleState =
        phase === 'between-runs' ? startRun(state.rules, state.ruleState, { userMessage: '' }) : state.ruleState;
      const storeProblem = currentStoreProblem(state);
      const view: SessionRuleStateView = {
        phase,
        rules: describeRuleState(state.rules, ruleState, catalogNames(state)),
        pendingApprovals: [...state.pendingApprovals.values()],
        runningCalls: [...state.running.values()],
        unavailableTools: unavailableTools(state),
        usage: state.usage,
        ...(storeProblem === undefined ? {} : { storeProblem }),
      };
      return ruleStatePage(view, String(workflowInfo().historyLength), cursor, maxBytes);
    },
    {
      description:
        'Rule state (between runs: as the next run starts): visible tools, every hidden tool with its reasons, sequence positions, forbidden tools, counts, pending approvals, running calls, tools that cannot run now (their MCP server is down), and why the session waits for its content store while it does. Paged: { cursor?, maxBytes? }; ask again with next until it is null, concatenating the lists.',
    },
  );
  setHandler(
    transcriptQuery,
    (request) => {
      const { cursor, maxBytes } = readPageRequest('transcript', request);
      return session.transcript.page(cursor, maxBytes);
    },
    {
      description:
        'The session turn by turn: user messages, visible tools, proposed calls, verdicts with reasons, approvals and tool results. Paged: { cursor?, maxBytes? }; ask again with next while more.',
    },
  );
  setHandler(statusQuery, () => statusView(state), {
    description:
      'Status (idle, thinking, running_tools, awaiting_approval, waiting_for_store, completed, failed), counters, why the last run ended, the content store and, while the session waits for it, why.',
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

/** Drops a signal whose payload could not be decoded, with a worker log line and a transcript notice. */
function dropUndecodable(session: Session, signal: string, input: unknown): boolean {
  const encoding = undecodableEncoding(input);
  if (encoding === undefined) return false;
  warnWithNotice(session, `dropped a ${signal} signal whose payload could not be decoded (encoding ${encoding})`);
  return true;
}

/** Says in the worker's log and in the transcript what the session did with an input it could not take. */
function warnWithNotice(session: Session, what: string): void {
  const text = `[toolrail] ${what}`;
  log.warn(text);
  session.emit({ type: 'notice', text });
}
