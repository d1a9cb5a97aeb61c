import { LRUCache } from 'lru-cache';
import type { ConversationMessage } from '../models';
import type { ContentRef, EncodedContent } from '../store';
import type { ConversationLog, ConversationLogKeys, MessageRef } from '../session';
import { segmentEntries } from '../session';
import { decodeMessage, decodeSegment, encodeMessage, encodeSegment } from './encode-message';

/** What the cache holds: a sealed segment, a message or a stored text. */
type CachedContent = CachedSegment | ConversationMessage | string;

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
  /** Every entry of a log given by its keys (what a model call's input carries), oldest first. */
  readLogKeys(sessionId: string, log: ConversationLogKeys): Promise<MessageRef[]>;
  /**
   * Seals `entries` after the segment `head` into a segment and returns its reference: while `head`
   * holds fewer than `segmentEntries` entries, the new segment takes its entries over (and names the
   * one before it), so the chain stays one segment per `segmentEntries` entries however often it is
   * sealed.
   */
  sealAfter(sessionId: string, head: string | null, entries: readonly MessageRef[]): Promise<ContentRef>;
  /** Writes `text` (UTF-8) and returns its key: a session's system prompt, named by its key from then on. */
  storeText(sessionId: string, text: string): Promise<string>;
  /** The text stored under `key` by {@link ConversationReader.storeText}. */
  readText(sessionId: string, key: string): Promise<string>;
}

/** Options of {@link createConversationReader}. */
export interface ConversationCacheOptions {
  /** Most bytes of content (as stored) the cache stands for; default 64 MiB. */
  cacheBytes?: number;
  /** An entry not read for this long (ms) leaves the cache; default five minutes. */
  cacheIdleMs?: number;
  /** The clock idleness is measured by (ms); default `performance.now`. */
  clock?: { now(): number };
}

/**
 * A conversation reader over `content` (a content store through the user's payload codecs, if
 * any). Content is immutable, so segments and messages read once stay in an in-process cache while
 * their session is busy: the model call at call 1,000 reads only what is new since the last one.
 * The cache lets go of the least recently read first past `cacheBytes`, and of what was not read for
 * `cacheIdleMs` (ended and waiting sessions), so a worker that runs many sessions one after another
 * holds only those of the last few minutes.
 */
export function createConversationReader(
  content: EncodedContent,
  { cacheBytes = 64 * 1024 * 1024, cacheIdleMs = 5 * 60_000, clock = performance }: ConversationCacheOptions = {},
): ConversationReader {
  const cache = new LRUCache<string, CachedContent>({
    // A value larger than the whole cache is not kept (lru-cache's default: an entry may be at most `maxSize`).
    maxSize: cacheBytes,
    ttl: cacheIdleMs,
    updateAgeOnGet: true,
    // Reads the clock on each use rather than caching its reading behind a timer.
    ttlResolution: 0,
    perf: clock,
  });
  // Expired entries leave as they are met, and all at once at most every quarter of `cacheIdleMs`
  // as new ones come: memory follows the sessions that are busy, with no timer of its own.
  let purgedAt = clock.now();
  const remember = (key: string, value: CachedContent, bytes: number): void => {
    if (clock.now() - purgedAt >= cacheIdleMs / 4) {
      cache.purgeStale();
      purgedAt = clock.now();
    }
    cache.set(key, value, { size: Math.max(1, bytes) }); // lru-cache counts no size below 1
  };

  const readSegment = async (sessionId: string, key: string): Promise<CachedSegment> => {
    const cacheKey = `${sessionId}\u0000${key}`;
    const cached = cache.get(cacheKey) as CachedSegment | undefined;
    if (cached) return cached;
    const bytes = await content.get(sessionId, key);
    const segment = decodeSegment(bytes);
    const value: CachedSegment = {
      previous: segment.previous?.key ?? null,
      previousRef: segment.previous,
      entries: segment.entries,
      bytes: bytes.length,
    };
    remember(cacheKey, value, bytes.length);
    return value;
  };
  const readChain = async (sessionId: string, head: string | null): Promise<MessageRef[]> => {
    const segments: MessageRef[][] = [];
    for (let key = head; key !== null;) {
      const segment = await readSegment(sessionId, key);
      segments.push(segment.entries);
      key = segment.previous;
    }
    return segments.reverse().flat();
  };
  // A long conversation is mostly cached: those are taken at once, and only the others read (concurrently).
  const readMessages = async (sessionId: string, refs: readonly { key: string }[]): Promise<ConversationMessage[]> => {
    const messages = refs.map(({ key }) => cache.get(`${sessionId}\u0000${key}`) as ConversationMessage | undefined);
    const missing = refs.flatMap(({ key }, index) => (messages[index] === undefined ? [{ key, index }] : []));
    await Promise.all(
      missing.map(async ({ key, index }) => {
        const bytes = await content.get(sessionId, key);
        const message = decodeMessage(bytes);
        remember(`${sessionId}\u0000${key}`, message, bytes.length);
        messages[index] = message;
      }),
    );
    return messages as ConversationMessage[];
  };

  return {
    async readLog(sessionId, log) {
      return [...(await readChain(sessionId, log.head?.key ?? null)), ...log.tail];
    },
    async readLogKeys(sessionId, { head, tail }) {
      const tailMessages = await readMessages(
        sessionId,
        tail.map((key) => ({ key })),
      );
      // The tail's references: their keys as given, the rest as their messages give it.
      const tailRefs = tailMessages.map((message, index): MessageRef => {
        const { role, bytes, preview } = encodeMessage(message).ref;
        return { role, key: tail[index] as string, bytes, preview };
      });
      return [...(await readChain(sessionId, head)), ...tailRefs];
    },
    readMessages,
    async storeMessages(sessionId, messages) {
      const encoded = messages.map(encodeMessage);
      const keys = await Promise.all(encoded.map(({ bytes }) => content.put(sessionId, bytes)));
      const refs = encoded.map(({ ref }, index): MessageRef => {
        const { role, bytes, preview } = ref;
        return { role, key: keys[index] as string, bytes, preview };
      });
      // What this worker wrote, the next model call on it reads without a round trip to the store.
      for (const [index, { bytes }] of encoded.entries())
        remember(`${sessionId}\u0000${keys[index] as string}`, decodeMessage(bytes), bytes.length);
      return refs;
    },
    async sealAfter(sessionId, head, entries) {
      const previous = head === null ? null : await readSegment(sessionId, head);
      const merged =
        previous !== null && previous.entries.length < segmentEntries
          ? { previous: previous.previousRef, entries: [...previous.entries, ...entries] }
          : {
              previous: head === null || previous === null ? null : { key: head, bytes: previous.bytes, preview: '' },
              entries: [...entries],
            };
      const bytes = encodeSegment(merged);
      const key = await content.put(sessionId, bytes);
      // A segment the new one took over is read no more: it leaves the cache at once.
      if (head !== null && merged.previous?.key !== head) cache.delete(`${sessionId}\u0000${head}`);
      const cached: CachedSegment = {
        previous: merged.previous?.key ?? null,
        previousRef: merged.previous,
        entries: merged.entries,
        bytes: bytes.length,
      };
      remember(`${sessionId}\u0000${key}`, cached, bytes.length);
      return { key, bytes: bytes.length, preview: '' };
    },
    async storeText(sessionId, text) {
      const bytes = new TextEncoder().encode(text);
      const key = await content.put(sessionId, bytes);
      remember(`${sessionId}\u0000${key}`, text, bytes.length);
      return key;
    },
    async readText(sessionId, key) {
      const cacheKey = `${sessionId}\u0000${key}`;
      const cached = cache.get(cacheKey) as string | undefined;
      if (cached !== undefined) return cached;
      const bytes = await content.get(sessionId, key);
      const text = new TextDecoder().decode(bytes);
      remember(cacheKey, text, bytes.length);
      return text;
    },
    async sealTail(sessionId, log) {
      if (log.tail.length === 0) return log;
      const bytes = encodeSegment({ previous: log.head, entries: log.tail });
      const key = await content.put(sessionId, bytes);
      return { head: { key, bytes: bytes.length, preview: '' }, tail: [], count: log.count, bytes: log.bytes };
    },
  };
}

/** A sealed segment as the reader keeps it: the key and reference of the one before it, its entries, its size. */
interface CachedSegment {
  previous: string | null;
  previousRef: ContentRef | null;
  entries: MessageRef[];
  bytes: number;
}
