import type { FeedEvent } from '../session';

/**
 * What travels on a live channel. Every message names its `topic`: a session's
 * ({@link sessionTopic}) for what watchers read, or a namespace's cancellations
 * ({@link cancelTopic}) for the workers.
 */
export type LiveMessage = LiveFeedEvents | LiveFeedMore | LiveText | LiveCancel;

/**
 * Feed events a workflow task appended, published once the task is durable (its completion is in
 * the history): consecutive offsets, the same events the `feed` query returns.
 */
export interface LiveFeedEvents {
  kind: 'events';
  topic: string;
  events: FeedEvent[];
}

/** The feed has events before offset `end` that did not travel on the channel (too large, or lost): read them. */
export interface LiveFeedMore {
  kind: 'more';
  topic: string;
  end: number;
}

/**
 * A piece of text a streaming model call just wrote: not in the durable feed. `seq` counts the
 * pieces of one call attempt from 1; `at` is the worker's clock when it was written (epoch ms).
 */
export interface LiveText {
  kind: 'text';
  topic: string;
  turn: number;
  attempt: number;
  seq: number;
  text: string;
  at: number;
}

/**
 * A session's workflow cancelled running calls (an interrupt, a failing sibling), in a workflow
 * task now durable: the worker running one aborts it at once. `model`: the model call too.
 */
export interface LiveCancel {
  kind: 'cancel';
  topic: string;
  session: string;
  callIds: string[];
  model: boolean;
}

/** The topic of one session's messages (feed events, text) in a namespace. */
export function sessionTopic(namespace: string, sessionId: string): string {
  return `session/${namespace}/${sessionId}`;
}

/** The topic of a namespace's cancellations, which every worker with a channel follows. */
export function cancelTopic(namespace: string): string {
  return `cancel/${namespace}`;
}

/**
 * A message read from a channel, checked: its shape, or `undefined` for anything else (another
 * version's message, a stray write). Offsets, turns and counts are non-negative integers.
 */
export function readLiveMessage(value: unknown): LiveMessage | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const message = value as Record<string, unknown>;
  if (typeof message['topic'] !== 'string') return undefined;
  switch (message['kind']) {
    case 'events': {
      const events = message['events'];
      if (!Array.isArray(events) || events.length === 0) return undefined;
      const offsets = events.map((event) => (event as { offset?: unknown } | null)?.offset);
      const first = offsets[0];
      if (!isCount(first) || !offsets.every((offset, index) => offset === first + index)) return undefined;
      if (!events.every((event) => typeof (event as { type?: unknown }).type === 'string')) return undefined;
      return value as LiveFeedEvents;
    }
    case 'more':
      return isCount(message['end']) ? (value as LiveFeedMore) : undefined;
    case 'text':
      return isCount(message['turn']) &&
        isCount(message['attempt']) &&
        isCount(message['seq']) &&
        typeof message['text'] === 'string' &&
        typeof message['at'] === 'number'
        ? (value as LiveText)
        : undefined;
    case 'cancel':
      return typeof message['session'] === 'string' &&
        Array.isArray(message['callIds']) &&
        message['callIds'].every((callId) => typeof callId === 'string') &&
        typeof message['model'] === 'boolean'
        ? (value as LiveCancel)
        : undefined;
    default:
      return undefined;
  }
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
