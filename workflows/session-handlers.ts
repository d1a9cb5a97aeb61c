import { log, setHandler } from '@temporalio/workflow';
import { describeRuleState } from '../src/rules';
import { utf8ByteLength } from '../src/kernel';
import {
  approveToolCallUpdate,
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
import type { ApproveToolCallInput, UserMessageInput } from '../src/session';
import { catalogNames, note, statusView } from './session-state';
import type { SessionState } from './session-state';

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
export function installHandlers(state: SessionState): void {
  setHandler(
    userMessageSignal,
    (input) => {
      if (dropUndecodable(state, 'userMessage', input)) return;
      const problem = messageProblem(state, input?.text);
      if (problem === undefined) state.queuedMessages.push(input.text);
      else warnWithNotice(state, `dropped a userMessage signal: ${problem}`);
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
      if (dropUndecodable(state, 'interrupt', input)) return;
      if (!isInterruptInput(input)) {
        return warnWithNotice(state, 'dropped a malformed interrupt signal (expected nothing or { message?: string })');
      }
      const message = input?.message;
      const problem = message === undefined ? undefined : messageProblem(state, message);
      if (problem !== undefined) return warnWithNotice(state, `dropped an interrupt signal: ${problem}`);
      interruptRun(state, message === undefined ? {} : { message });
    },
    {
      description:
        'Stops the model call and every running tool whose interruptBehavior is cancel; block tools finish first. An optional message starts the next run.',
    },
  );
  setHandler(
    toolCallFinishedLateSignal,
    (input) => {
      if (dropUndecodable(state, 'toolCallFinishedLate', input)) return;
      if (typeof input?.callId !== 'string' || typeof input.toolName !== 'string') return;
      const call = `${input.toolName} call ${input.callId}`;
      const ended = input.outcome === 'completed' ? 'completed' : 'failed';
      warnWithNotice(
        state,
        input.outcome === 'still-running'
          ? `${call} did not stop: it was still running when the session moved on and may still apply its effect`
          : `${call} finished late, after the session moved on (${ended}): ${String(input.summary ?? '')}`,
      );
    },
    { description: 'From the worker: a tool that ignored its abort signal is still running, or finished late.' },
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
      usage: state.usage,
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
  const encoding = undecodableEncoding(input);
  if (encoding !== undefined)
    throw new TypeError(`approveToolCall payload could not be decoded (encoding ${encoding})`);
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

/** Drops a signal whose payload could not be decoded, with a worker log line and a transcript notice. */
function dropUndecodable(state: SessionState, signal: string, input: unknown): boolean {
  const encoding = undecodableEncoding(input);
  if (encoding === undefined) return false;
  warnWithNotice(state, `dropped a ${signal} signal whose payload could not be decoded (encoding ${encoding})`);
  return true;
}

/** Says in the worker's log and in the transcript what the session did with an input it could not take. */
function warnWithNotice(state: SessionState, what: string): void {
  const text = `[toolrail] ${what}`;
  log.warn(text);
  note(state, { kind: 'notice', text });
}

/** `interrupt` takes nothing, or `{ message?: string }`. */
function isInterruptInput(input: unknown): input is { message?: string } | undefined | null {
  if (input === undefined || input === null) return true;
  if (typeof input !== 'object' || Array.isArray(input)) return false;
  const { message } = input as { message?: unknown };
  return message === undefined || typeof message === 'string';
}
