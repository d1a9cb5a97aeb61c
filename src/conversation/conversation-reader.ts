import type { ConversationMessage } from '../models';
import type { EncodedContent } from '../store';
import type { ConversationLog, MessageRef } from '../session';
import { decodeMessage, decodeSegment, encodeMessage, encodeSegment } from './encode-message';

/** Reads and writes one worker's view of the sessions' conversations in a content store. */
export interface ConversationReader {
  /** Every entry of the log, oldest first: the sealed segments (newest names the one before), then the tail. */
  readLog(sessionId: string, log: ConversationLog): Promise<MessageRef[]>;
  /** The messages `refs` point to, in order. */
  readMessages(sessionId: string, refs: readonly MessageRef[]): Promise<ConversationMessage[]>;
  /**
   * Writes messages and returns their references, in order. Idempotent without payload codecs (the
   * same message has the same key); a codec that encrypts with a fresh nonce stores a rewrite (a
   * retried activity) as a second copy under a new key, which goes with the session on prune.
   */
  storeMessages(sessionId: string, messages: readonly ConversationMessage[]): Promise<MessageRef[]>;
  /** Seals the log's tail into a segment; returns the log with that segment as its head and an empty tail. */
  sealTail(sessionId: string, log: ConversationLog): Promise<ConversationLog>;
}

/**
 * A conversation reader over `content` (a content store through the user's payload codecs, if
 * any). Content is immutable, so segments and messages read once stay in an in-process cache
 * (least recently used first out, at most `cacheBytes`, default 64 MiB): the model call at call
 * 1,000 reads only what is new since the last one.
 */
export function createConversationReader(
  content: EncodedContent,
  { cacheBytes = 64 * 1024 * 1024 } = {},
): ConversationReader {
  const cache = new ByteBoundedCache(cacheBytes);

  const readSegment = async (
    sessionId: string,
    key: string,
  ): Promise<{ previous: string | null; entries: MessageRef[] }> => {
    const cacheKey = `${sessionId}\u0000${key}`;
    const cached = cache.get(cacheKey) as { previous: string | null; entries: MessageRef[] } | undefined;
    if (cached) return cached;
    const bytes = await content.get(sessionId, key);
    const segment = decodeSegment(bytes);
    const value = { previous: segment.previous?.key ?? null, entries: segment.entries };
    cache.set(cacheKey, value, bytes.length);
    return value;
  };

  return {
    async readLog(sessionId, log) {
      const segments: MessageRef[][] = [];
      for (let key = log.head?.key ?? null; key !== null;) {
        const segment = await readSegment(sessionId, key);
        segments.push(segment.entries);
        key = segment.previous;
      }
      return [...segments.reverse().flat(), ...log.tail];
    },
    readMessages(sessionId, refs) {
      return Promise.all(
        refs.map(async ({ key }) => {
          const cacheKey = `${sessionId}\u0000${key}`;
          const cached = cache.get(cacheKey) as ConversationMessage | undefined;
          if (cached) return cached;
          const bytes = await content.get(sessionId, key);
          const message = decodeMessage(bytes);
          cache.set(cacheKey, message, bytes.length);
          return message;
        }),
      );
    },
    async storeMessages(sessionId, messages) {
      const encoded = messages.map(encodeMessage);
      const keys = await Promise.all(encoded.map(({ bytes }) => content.put(sessionId, bytes)));
      const refs = encoded.map(({ ref }, index): MessageRef => {
        const { role, bytes, preview } = ref;
        return { role, key: keys[index] as string, bytes, preview };
      });
      // What this worker wrote, the next model call on it reads without a round trip to the store.
      for (const [index, { bytes }] of encoded.entries())
        cache.set(`${sessionId}\u0000${keys[index] as string}`, decodeMessage(bytes), bytes.length);
      return refs;
    },
    async sealTail(sessionId, log) {
      if (log.tail.length === 0) return log;
      const bytes = encodeSegment({ previous: log.head, entries: log.tail });
      const key = await content.put(sessionId, bytes);
      return { head: { key, bytes: bytes.length, preview: '' }, tail: [], count: log.count, bytes: log.bytes };
    },
  };
}

/** A least-recently-used cache bounded by the bytes its values stand for. */
class ByteBoundedCache {
  readonly #entries = new Map<string, { value: unknown; bytes: number }>();
  readonly #limit: number;
  #bytes = 0;

  constructor(limit: number) {
    this.#limit = limit;
  }

  get(key: string): unknown {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: unknown, bytes: number): void {
    if (bytes > this.#limit) return;
    const known = this.#entries.get(key);
    if (known) this.#bytes -= known.bytes;
    this.#entries.delete(key);
    this.#entries.set(key, { value, bytes });
    this.#bytes += bytes;
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.#limit) break;
      this.#entries.delete(oldest);
      this.#bytes -= entry.bytes;
    }
  }
}
