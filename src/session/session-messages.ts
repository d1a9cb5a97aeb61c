import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import { undecodableEncoding } from './payload-converter';
import type { SessionRuleStateView, SessionStatusView, TranscriptEntry } from './session-views';

/** Payload of {@link interruptSignal}. */
export interface InterruptInput {
  /** A message to start the next run with, after the interrupt. */
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

/** The rule state: visible tools, hidden tools with reasons, counts, sequences, pending approvals, running calls. */
export const ruleStateQuery = defineQuery<SessionRuleStateView>('ruleState');

/** Everything that happened, turn by turn. */
export const transcriptQuery = defineQuery<TranscriptEntry[]>('transcript');

/** Status, counters and why the last run ended. */
export const statusQuery = defineQuery<SessionStatusView>('status');

/**
 * The `approveToolCall` payload, checked: throws a `TypeError` saying what is wrong with one that
 * could not be decoded or is not `{ callId: non-empty string, approved: boolean, reason?: string }`.
 */
export function checkApproveToolCallInput(input: unknown): ApproveToolCallInput {
  const encoding = undecodableEncoding(input);
  if (encoding !== undefined)
    throw new TypeError(`approveToolCall payload could not be decoded (encoding ${encoding})`);
  if (typeof input !== 'object' || input === null)
    throw new TypeError('approveToolCall needs { callId, approved, reason? }');
  const { callId, approved, reason } = input as Partial<Record<keyof ApproveToolCallInput, unknown>>;
  if (typeof callId !== 'string' || callId === '') throw new TypeError('callId must be a non-empty string');
  if (typeof approved !== 'boolean') throw new TypeError('approved must be true or false');
  if (reason !== undefined && typeof reason !== 'string') throw new TypeError('reason must be a string');
  return { callId, approved, ...(reason === undefined ? {} : { reason }) };
}
