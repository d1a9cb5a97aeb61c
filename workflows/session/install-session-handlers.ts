import { log, setHandler } from '@temporalio/workflow';
import { describeRuleState } from '../../src/rules';
import {
  approveToolCallUpdate,
  endSessionSignal,
  interruptSignal,
  ruleStateQuery,
  statusQuery,
  transcriptQuery,
  userMessageSignal,
} from '../../src/session/session-messages';
import type { ApproveToolCallInput } from '../../src/session/session-messages';
import { undecodableEncoding } from '../../src/session/payload-converter';
import { toolCallFinishedLateSignal } from '../../src/session/tool-call-finished-late';
import type { SessionContext } from './session-context';
import { requestInterrupt } from './request-interrupt';

const maxMessageChars = 200_000;

/** Installs every signal, update and query handler of a session on `context`. */
export function installSessionHandlers(context: SessionContext): void {
  setHandler(
    userMessageSignal,
    (input) => {
      if (dropUndecodable(context, 'userMessage', input)) return;
      const text = readText(input?.text);
      if (text === undefined) return; // a malformed payload is dropped without touching the session
      context.queuedMessages.push(text);
    },
    { description: 'A user message. Starts a run, or waits for running tools and then starts the next run.' },
  );

  setHandler(
    interruptSignal,
    (input) => {
      if (dropUndecodable(context, 'interrupt', input)) return;
      if (!isInterruptInput(input)) {
        dropWithNotice(context, 'dropped a malformed interrupt signal (expected nothing or { message?: string })');
        return;
      }
      const message = input?.message === undefined ? undefined : readText(input.message);
      requestInterrupt(context, message === undefined ? {} : { message });
    },
    {
      description:
        'Stops the model call and every running tool whose interruptBehavior is cancel; block tools finish first. An optional message starts the next run.',
    },
  );

  setHandler(
    toolCallFinishedLateSignal,
    (input) => {
      if (dropUndecodable(context, 'toolCallFinishedLate', input)) return;
      if (typeof input?.callId !== 'string' || typeof input.toolName !== 'string') return;
      const call = `${input.toolName} call ${input.callId}`;
      const text =
        input.outcome === 'still-running'
          ? `[toolrail] ${call} did not stop: it was still running when the session moved on and may still apply its effect`
          : `[toolrail] ${call} finished late, after the session moved on (${input.outcome === 'completed' ? 'completed' : 'failed'}): ${String(input.summary ?? '')}`;
      log.warn(text);
      context.note({ kind: 'notice', text });
    },
    { description: 'From the worker: a tool that ignored its abort signal is still running, or finished late.' },
  );

  setHandler(
    endSessionSignal,
    () => {
      context.endRequested = true;
    },
    { description: 'Ends the session once the current run is over.' },
  );

  setHandler(
    approveToolCallUpdate,
    ({ callId, approved, reason }) => {
      context.decisions.set(callId, { approved, ...(reason === undefined ? {} : { reason }) });
      context.pendingApprovals.delete(callId);
      return { callId, decision: approved ? 'approved' : 'denied' };
    },
    {
      validator: (input: ApproveToolCallInput) => validateApproval(context, input),
      description: 'Approves or denies a tool call that waits for a human: { callId, approved, reason? }.',
    },
  );

  setHandler(
    ruleStateQuery,
    () => ({
      rules: describeRuleState(context.rules, context.ruleState, context.catalogNames()),
      pendingApprovals: [...context.pendingApprovals.values()],
      runningCalls: [...context.running.values()].map(({ prepared }) => ({
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

  setHandler(transcriptQuery, () => context.transcript, {
    description:
      'The session turn by turn: user messages, visible tools, proposed calls, verdicts with reasons, approvals and tool results.',
  });

  setHandler(
    statusQuery,
    () => ({
      status: context.status,
      lastRunEnd: context.lastRunEnd,
      lastTool: context.lastTool,
      counters: context.counters,
      queuedMessages: context.queuedMessages.length,
    }),
    {
      description:
        'Status (idle, thinking, running_tools, awaiting_approval, completed), counters and why the last run ended.',
    },
  );
}

/** Drops a signal whose payload could not be decoded, with a worker log line and a transcript notice. */
function dropUndecodable(context: SessionContext, signal: string, input: unknown): boolean {
  const encoding = undecodableEncoding(input);
  if (encoding === undefined) return false;
  dropWithNotice(context, `dropped a ${signal} signal whose payload could not be decoded (encoding ${encoding})`);
  return true;
}

function dropWithNotice(context: SessionContext, what: string): void {
  const text = `[toolrail] ${what}`;
  log.warn(text);
  context.note({ kind: 'notice', text });
}

/** `interrupt` takes nothing, or `{ message?: string }` with a non-blank message. */
function isInterruptInput(input: unknown): input is { message?: string } | undefined | null {
  if (input === undefined || input === null) return true;
  if (typeof input !== 'object' || Array.isArray(input)) return false;
  const message = (input as { message?: unknown }).message;
  return message === undefined || readText(message) !== undefined;
}

function readText(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  return value.length > maxMessageChars ? value.slice(0, maxMessageChars) : value;
}

/** Rejects (before anything is written to history) approvals of unknown, decided or malformed calls. */
function validateApproval(context: SessionContext, input: ApproveToolCallInput): void {
  const encoding = undecodableEncoding(input);
  if (encoding !== undefined)
    throw new TypeError(`approveToolCall payload could not be decoded (encoding ${encoding})`);
  if (typeof input !== 'object' || input === null)
    throw new TypeError('approveToolCall needs { callId, approved, reason? }');
  if (typeof input.callId !== 'string' || input.callId === '') throw new TypeError('callId must be a non-empty string');
  if (typeof input.approved !== 'boolean') throw new TypeError('approved must be true or false');
  if (input.reason !== undefined && typeof input.reason !== 'string') throw new TypeError('reason must be a string');
  if (context.decisions.has(input.callId)) throw new Error(`call ${input.callId} was already decided`);
  if (!context.pendingApprovals.has(input.callId)) {
    const known = [...context.pendingApprovals.keys()];
    throw new Error(
      `no call ${input.callId} waits for approval${known.length ? `; waiting: ${known.join(', ')}` : ' (none waits now)'}`,
    );
  }
}
