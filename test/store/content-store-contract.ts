import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentStore } from '../../src/store/content-store';
import { ContentStoreError } from '../../src/store/content-store-error';
import { contentRefOf } from '../../src/store/hash-content';

/** How a contract run makes a store and damages its content in place. */
export interface ContractSubject {
  open(): Promise<ContentStore>;
  /** Overwrites the stored bytes of `key` with `bytes`, bypassing the store. */
  corrupt(store: ContentStore, sessionId: string, key: string, bytes: Uint8Array): Promise<void>;
  /** Makes every stored item of `sessionId` look written at `when`. */
  age(store: ContentStore, sessionId: string, when: Date): Promise<void>;
}

async function rejection(promise: Promise<unknown>): Promise<ContentStoreError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ContentStoreError);
    return error as ContentStoreError;
  }
  throw new Error('expected a rejection');
}

let counter = 0;
const unique = (name: string): string => `${name}-${process.pid}-${++counter}-${Math.random().toString(36).slice(2)}`;

/** The behaviour every {@link ContentStore} shares. */
export function contentStoreContract(name: string, subject: ContractSubject): void {
  describe(`${name} content store`, () => {
    let store: ContentStore;
    beforeAll(async () => {
      store = await subject.open();
    });
    afterAll(async () => {
      await store.close();
    });

    it('returns the bytes it stored', async () => {
      const session = unique('round-trip');
      const { ref, bytes } = contentRefOf('hello, store');
      await store.put(session, ref.key, bytes);
      expect(new TextDecoder().decode(await store.get(session, ref.key))).toBe('hello, store');
    });

    it('accepts the same put twice without change', async () => {
      const session = unique('idempotent');
      const { ref, bytes } = contentRefOf('twice');
      await store.put(session, ref.key, bytes);
      await store.put(session, ref.key, bytes);
      expect(new TextDecoder().decode(await store.get(session, ref.key))).toBe('twice');
      expect(await store.deleteSession(session)).toBe(1);
    });

    it('keeps sessions apart, whatever characters their ids hold', async () => {
      const a = unique('a/../b %2F 会话 🎉');
      const b = unique('x'.repeat(300));
      const { ref, bytes } = contentRefOf('only in a');
      await store.put(a, ref.key, bytes);
      expect(await store.get(a, ref.key)).toEqual(bytes);
      const missing = await rejection(store.get(b, ref.key));
      expect(missing.code).toBe('CONTENT_MISSING');
    });

    it('stores CJK and emoji content by its UTF-8 size', async () => {
      const session = unique('utf8');
      const text = '你好世界🎉'.repeat(1000);
      const { ref, bytes } = contentRefOf(text);
      expect(ref.bytes).toBe(16000);
      await store.put(session, ref.key, bytes);
      const back = await store.get(session, ref.key);
      expect(back.byteLength).toBe(16000);
      expect(new TextDecoder().decode(back)).toBe(text);
    });

    it('rejects missing content naming the session and the key', async () => {
      const session = unique('missing');
      const { ref } = contentRefOf('never stored');
      const error = await rejection(store.get(session, ref.key));
      expect(error.code).toBe('CONTENT_MISSING');
      expect(error.sessionId).toBe(session);
      expect(error.key).toBe(ref.key);
      expect(error.message).toContain(session);
      expect(error.message).toContain(ref.key);
      expect(error.message).toContain(store.description);
    });

    it('rejects content whose bytes no longer match their key', async () => {
      const session = unique('corrupt');
      const { ref, bytes } = contentRefOf('original');
      await store.put(session, ref.key, bytes);
      await subject.corrupt(store, session, ref.key, new TextEncoder().encode('tampered'));
      const error = await rejection(store.get(session, ref.key));
      expect(error.code).toBe('CONTENT_CORRUPT');
      expect(error.message).toContain(session);
      expect(error.message).toContain(ref.key);
    });

    it('deletes one session and leaves the others', async () => {
      const gone = unique('gone');
      const kept = unique('kept');
      const one = contentRefOf('one');
      const two = contentRefOf('two');
      await store.put(gone, one.ref.key, one.bytes);
      await store.put(gone, two.ref.key, two.bytes);
      await store.put(kept, one.ref.key, one.bytes);
      expect(await store.deleteSession(gone)).toBe(2);
      expect((await rejection(store.get(gone, one.ref.key))).code).toBe('CONTENT_MISSING');
      expect(await store.get(kept, one.ref.key)).toEqual(one.bytes);
    });

    it('deletes the sessions whose newest write is older than the cut-off', async () => {
      const old = unique('old');
      const fresh = unique('fresh');
      const { ref, bytes } = contentRefOf('aged');
      await store.put(old, ref.key, bytes);
      await store.put(fresh, ref.key, bytes);
      await subject.age(store, old, new Date('2020-01-01T00:00:00Z'));
      const removed = await store.deleteSessionsOlderThan(new Date('2021-01-01T00:00:00Z'));
      expect(removed).toContain(old);
      expect(removed).not.toContain(fresh);
      expect((await rejection(store.get(old, ref.key))).code).toBe('CONTENT_MISSING');
      expect(await store.get(fresh, ref.key)).toEqual(bytes);
    });

    it('lets concurrent writers of one key all succeed', async () => {
      const session = unique('concurrent');
      const { ref, bytes } = contentRefOf('x'.repeat(100_000));
      const others = await Promise.all(Array.from({ length: 3 }, () => subject.open()));
      try {
        await Promise.all(
          [store, ...others].flatMap((s) => [s.put(session, ref.key, bytes), s.put(session, ref.key, bytes)]),
        );
      } finally {
        await Promise.all(others.map((s) => s.close()));
      }
      expect((await store.get(session, ref.key)).byteLength).toBe(100_000);
      expect(await store.deleteSession(session)).toBe(1);
    });
  });
}
