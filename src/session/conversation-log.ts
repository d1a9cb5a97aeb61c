import type { ContentRef } from '../store';

/** Who a conversation message is from. */
export type MessageRole = 'user' | 'assistant' | 'tool';

/**
 * One message of the conversation as the workflow holds it: the reference to its stored JSON (a
 * `ConversationMessage`), its role, and a preview of its text.
 */
export interface MessageRef extends ContentRef {
  role: MessageRole;
}

/**
 * The conversation by reference: an append-only log whose older entries sit in the content store
 * in segments (`head` is the newest sealed segment, which names the one before it), and whose
 * newest entries (`tail`) are held inline until they are sealed. What the workflow carries and
 * sends stays bounded however long the session runs.
 */
export interface ConversationLog {
  /** The newest sealed segment, or `null` before the first one is sealed. */
  head: ContentRef | null;
  /** Entries after `head`, oldest first; at most {@link segmentEntries} before they are sealed. */
  tail: MessageRef[];
  /** Messages in the whole log. */
  count: number;
  /** UTF-8 bytes of all messages in the log. */
  bytes: number;
}

/**
 * A conversation log as a model call's input carries it: the key of its newest sealed segment and
 * the keys of the entries after it. The activity reads the rest from the content store, so the
 * input stays small however long the session runs.
 */
export interface ConversationLogKeys {
  head: string | null;
  tail: string[];
}

/** The keys of `log` (see {@link ConversationLogKeys}). */
export function conversationLogKeys(log: ConversationLog): ConversationLogKeys {
  return { head: log.head?.key ?? null, tail: log.tail.map((entry) => entry.key) };
}

/**
 * A sealed segment as stored (JSON): the segment before it, if any, and its entries, oldest first.
 * Its key is the SHA-256 of the bytes stored: that JSON, or its encoded form with payload codecs.
 */
export interface ConversationSegment {
  previous: ContentRef | null;
  entries: MessageRef[];
}

/** How many entries the tail holds before the workflow seals it into a segment. */
export const segmentEntries = 32;

/** The log of a new session. */
export const emptyConversationLog: ConversationLog = { head: null, tail: [], count: 0, bytes: 0 };

/**
 * The log with the model's response `entry`: when the model call sealed its tail and `entry` into
 * the segment `sealed`, that segment ends it; otherwise `entry` joins the tail.
 */
export function logWithResponse(
  log: ConversationLog,
  entry: MessageRef,
  sealed: ContentRef | undefined,
): ConversationLog {
  if (sealed === undefined) return appendToLog(log, [entry]);
  return { head: sealed, tail: [], count: log.count + 1, bytes: log.bytes + entry.bytes };
}

/** The log with `entries` appended (pure; the caller seals the tail once it is full). */
export function appendToLog(log: ConversationLog, entries: readonly MessageRef[]): ConversationLog {
  return {
    head: log.head,
    tail: [...log.tail, ...entries],
    count: log.count + entries.length,
    bytes: entries.reduce((sum, entry) => sum + entry.bytes, log.bytes),
  };
}
