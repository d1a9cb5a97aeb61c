import { log, setHandler } from '@temporalio/workflow';
import { describeRuleState } from '../src/rules';
import { utf8ByteLength } from '../src/kernel';
import {
  endSessionSignal,
  interruptSignal,
  ruleStateQuery,
  sendUserMessageUpdate,
  statusQuery,
  transcriptQuery,
  userMessageSignal,
  undecodableEncoding,
  toolCallFinishedLateSignal,
} from '../src/session';
import type { UserMessageInput } from '../src/session';
import { installApprovals } from './batch';
import type { Session } from './session';
import type { SessionState } from './session-state';
import { catalogNames } from './session-state';
import { currentStoreProblem, statusView } from './session-views';

/**
 * Acts on a user interrupt at once: cancels the model call in flight and every running call whose
 * `interruptBehavior` is `cancel` (`block` calls finish), and queues the interrupt's message to
 * start the next run. The turn sees the interrupt in the state and ends the run.
 */
export function interruptRun(session: Session, request: { message?: string }): void {
  const { state, scopes } = session;
  session.emit({ type: 'interrupt_received', ...request });
  if (!state.run.inProgress) return;
  scopes.model?.cancel();
  for (const [callId, running] of scopes.calls) {
    if (state.running.get(callId)?.interruptBehavior === 'cancel') {
      running.interrupted = true;
      running.scope.cancel();
    }
  }
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
      if (dropUndecodable(session, 'userMessage', input)) return;
      const problem = messageProblem(state, input?.text);
      if (problem === undefined) session.emit({ type: 'message_received', text: input.text, via: 'signal' });
      else warnWithNotice(session, `dropped a userMessage signal: ${problem}`);
    },
    { description: 'A user message. Starts a run, or waits for running tools and then starts the next run.' },
  );
  setHandler(
    sendUserMessageUpdate,
    ({ text }) => {
      session.emit({ type: 'message_received', text, via: 'update' });
      return { queuedBefore: state.queuedMessages.length - 1, offset: session.feed.last() };
    },
    {
      validator: (input: UserMessageInput) => {
        const encoding = undecodableEncoding(input);
        if (encoding !== undefined) throw new TypeError(`the message could not be decoded (encoding ${encoding})`);
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
      if (dropUndecodable(session, 'interrupt', input)) return;
      if (!isInterruptInput(input)) {
        return warnWithNotice(
          session,
          'dropped a malformed interrupt signal (expected nothing or { message?: string })',
        );
      }
      const message = input?.message;
      const problem = message === undefined ? undefined : messageProblem(state, message);
      if (problem !== undefined) return warnWithNotice(session, `dropped an interrupt signal: ${problem}`);
      interruptRun(session, message === undefined ? {} : { message });
    },
    {
      description:
        'Stops the model call and every running tool whose interruptBehavior is cancel; block tools finish first. An optional message starts the next run.',
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
  setHandler(
    ruleStateQuery,
    () => {
      const storeProblem = currentStoreProblem(state);
      return {
        rules: describeRuleState(state.rules, state.ruleState, catalogNames(state)),
        pendingApprovals: [...state.pendingApprovals.values()],
        runningCalls: [...state.running.values()],
        unavailableTools: state.catalog.tools.flatMap(({ name, unavailable }) =>
          unavailable === undefined ? [] : [{ toolName: name, reason: unavailable }],
        ),
        usage: state.usage,
        ...(storeProblem === undefined ? {} : { storeProblem }),
      };
    },
    {
      description:
        'Rule state: visible tools, every hidden tool with its reasons, sequence positions, forbidden tools, counts, pending approvals, running calls, tools that cannot run now (their MCP server is down), and why the session waits for its content store while it does.',
    },
  );
  setHandler(transcriptQuery, () => session.transcript.entries(), {
    description:
      'The session turn by turn: user messages, visible tools, proposed calls, verdicts with reasons, approvals and tool results.',
  });
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

/** `interrupt` takes nothing, or `{ message?: string }`. */
function isInterruptInput(input: unknown): input is { message?: string } | undefined | null {
  if (input === undefined || input === null) return true;
  if (typeof input !== 'object' || Array.isArray(input)) return false;
  const { message } = input as { message?: unknown };
  return message === undefined || typeof message === 'string';
}
