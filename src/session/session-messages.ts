import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { z } from 'zod';
import { suggestName } from '../text';
import { zod } from '../rules';
import { describeValue, problemsOfIssues, readableIssues } from './input-problems';
import { undecodableProblem } from './payload-converter';
import type { PageRequest, RuleStatePage, TranscriptPage } from './answer-pages';
import type { SessionStatusView } from './session-views';

/** Payload of {@link interruptSignal}. */
export interface InterruptInput {
  /** A message to start the next run with, after the interrupt (the same field as `userMessage`'s). */
  text?: string;
  /** The older name of `text`, still taken. */
  message?: string;
}

/** Payload of {@link userMessageSignal}. */
export interface UserMessageInput {
  text: string;
}

/** Payload of {@link approveToolCallUpdate}. */
export interface ApproveToolCallInput {
  callId: string;
  approved: boolean;
  reason?: string;
}

/** Stops the model call and every running `cancel` tool; `block` tools finish first. */
export const interruptSignal = defineSignal<[InterruptInput]>('interrupt');

/** A user message: starts a run, or waits for the running tools and then starts the next one. */
export const userMessageSignal = defineSignal<[UserMessageInput]>('userMessage');

/** What {@link sendUserMessageUpdate} answers. */
export interface SentUserMessage {
  /** Messages queued before this one. */
  queuedBefore: number;
  /** The live feed's offset of the `message_received` event that queued it (absent from versions without a feed). */
  offset?: number;
}

/**
 * A user message, like {@link userMessageSignal}, but answered: the validator refuses (before
 * anything is written to history) an empty message or one over the session's
 * `limits.maxUserMessageBytes`, with an error that says the limit. Resolves to the number of
 * messages queued before it and the feed offset of its `message_received` event.
 */
export const sendUserMessageUpdate = defineUpdate<SentUserMessage, [UserMessageInput]>('sendUserMessage');

/** Ends the session once the current run is over. */
export const endSessionSignal = defineSignal<[]>('endSession');

/** Approves or denies a call that waits for a human. Rejected (history untouched) for unknown or decided call ids. */
export const approveToolCallUpdate = defineUpdate<
  { callId: string; decision: 'approved' | 'denied' },
  [ApproveToolCallInput]
>('approveToolCall');

/**
 * The rule state: visible tools, hidden tools with reasons, counts, sequences, pending approvals,
 * running calls. Paged (see `ruleStatePage`): ask again with `next` until it is `null`.
 */
export const ruleStateQuery = defineQuery<RuleStatePage, [PageRequest?]>('ruleState');

/** Everything that happened, turn by turn. Paged (see `transcriptPage`): ask again with `next` while `more`. */
export const transcriptQuery = defineQuery<TranscriptPage, [PageRequest?]>('transcript');

/** Status, counters and why the last run ended. */
export const statusQuery = defineQuery<SessionStatusView>('status');

/** The JSON shapes of the payloads toolrail's signals and updates take (strict: an unknown key is a mistake). */
function buildMessageInputSchemas() {
  const z = zod();
  return {
    userMessage: z.strictObject({ text: z.string() }),
    sendUserMessage: z.strictObject({ text: z.string() }),
    interrupt: z.strictObject({ text: z.string().optional(), message: z.string().optional() }),
    approveToolCall: z.strictObject({
      callId: z.string().min(1),
      approved: z.boolean(),
      reason: z.string().optional(),
    }),
  } as const;
}

type MessageInputSchemas = ReturnType<typeof buildMessageInputSchemas>;
let builtMessageInputSchemas: MessageInputSchemas | undefined;

/**
 * The payload shapes, built on first use and kept (the module is shared by the sessions of a
 * workflow thread): a worker whose sessions take no signal or update builds none of them.
 */
export function messageInputSchemas(): MessageInputSchemas {
  return (builtMessageInputSchemas ??= buildMessageInputSchemas());
}

/** The names of toolrail's signals, updates and queries: the session's wire contract (see docs/wire.md). */
export const sessionMessageNames = {
  signals: ['userMessage', 'interrupt', 'endSession', 'toolCallFinishedLate', 'modelText'],
  updates: ['sendUserMessage', 'approveToolCall'],
  queries: ['ruleState', 'transcript', 'status', 'feed'],
} as const;

/** The kinds of message a workflow takes. */
export type SessionMessageKind = keyof typeof sessionMessageNames;

/**
 * What to say about a signal, update or query name toolrail does not know: `signal "user_message"
 * is not one of toolrail's (did you mean "userMessage"?)`, or that the name is one of another kind
 * (`"sendUserMessage" is an update, not a signal`), with the names of that kind.
 */
export function unknownMessageText(kind: SessionMessageKind, name: string): string {
  const singular = { signals: 'signal', updates: 'update', queries: 'query' }[kind];
  const otherKind = (Object.keys(sessionMessageNames) as SessionMessageKind[]).find(
    (other) => other !== kind && (sessionMessageNames[other] as readonly string[]).includes(name),
  );
  const known = sessionMessageNames[kind].join(', ');
  if (otherKind !== undefined)
    return `"${name}" is ${{ signals: 'a signal', updates: 'an update', queries: 'a query' }[otherKind]}, not a ${singular} (toolrail's ${kind}: ${known})`;
  const nearest = suggestName(name, sessionMessageNames[kind]);
  const hint = nearest === undefined ? '' : ` (did you mean "${nearest}"?)`;
  return `toolrail has no ${singular} named "${name}"${hint}; its ${kind}: ${known}`;
}

/**
 * A signal's or update's payload, checked against its shape: the value, or one line that says what
 * is wrong (undecodable, not an object, unknown keys with the nearest known one, wrong types).
 * `null` and a missing payload count as `{}`.
 */
export function readMessageInput<K extends keyof MessageInputSchemas>(
  name: K,
  input: unknown,
): { ok: true; value: z.output<MessageInputSchemas[K]> } | { ok: false; problem: string } {
  const undecodable = undecodableProblem(input);
  if (undecodable !== undefined) return { ok: false, problem: undecodable };
  const value = input ?? {};
  if (typeof value !== 'object' || Array.isArray(value))
    return { ok: false, problem: `the payload must be an object, got ${describeValue(value)}` };
  const parsed = messageInputSchemas()[name].safeParse(value, readableIssues);
  if (parsed.success) return { ok: true, value: parsed.data as z.output<MessageInputSchemas[K]> };
  const problems = problemsOfIssues(parsed.error.issues, value).map(({ path, problem }) =>
    path === '' ? problem : `${path}: ${problem}`,
  );
  return { ok: false, problem: problems.join('; ') };
}

/**
 * The `approveToolCall` payload, checked: throws a `TypeError` saying what is wrong with one that
 * could not be decoded or is not `{ callId: non-empty string, approved: boolean, reason?: string }`.
 */
export function checkApproveToolCallInput(input: unknown): ApproveToolCallInput {
  const read = readMessageInput('approveToolCall', input);
  if (!read.ok) throw new TypeError(`${read.problem}; approveToolCall takes { callId, approved, reason? }`);
  const { callId, approved, reason } = read.value;
  return { callId, approved, ...(reason === undefined ? {} : { reason }) };
}
