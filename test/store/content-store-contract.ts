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
  /** Replaces the stored bytes of the record `name` with `bytes`, bypassing the store. */
  corruptRecord(store: ContentStore, sessionId: string, name: string, bytes: Uint8Array): Promise<void>;
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

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array | undefined): string | undefined =>
  bytes === undefined ? undefined : new TextDecoder().decode(bytes);

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

    it('lists its sessions with their items, bytes and newest write', async () => {
      const old = unique('old');
      const fresh = unique('fresh 会话');
      const { ref, bytes } = contentRefOf('aged');
      const other = contentRefOf('a second item, longer');
      await store.put(old, ref.key, bytes);
      await store.put(fresh, ref.key, bytes);
      await store.put(fresh, other.ref.key, other.bytes);
      await store.putRecord(fresh, 'call', encode('a record'));
      await subject.age(store, old, new Date('2020-01-01T00:00:00Z'));
      const listed = new Map((await store.listSessions()).map((session) => [session.sessionId, session]));
      expect(listed.get(old)).toMatchObject({ items: 1, bytes: bytes.byteLength });
      expect(listed.get(old)?.lastWriteAt.toISOString()).toBe('2020-01-01T00:00:00.000Z');
      const recent = listed.get(fresh);
      expect(recent?.items).toBe(3);
      // The record is stored with a header that carries its hash: it counts a little more than its bytes.
      expect(recent?.bytes).toBeGreaterThan(bytes.byteLength + other.bytes.byteLength + 8);
      expect(recent?.lastWriteAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
    });

    it('has one identity, the same for every process that opens it', async () => {
      const id = await store.identity?.();
      expect(id).toMatch(/\S/);
      const again = await subject.open();
      try {
        expect(await again.identity?.()).toBe(id);
      } finally {
        await again.close();
      }
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

    it('writes a named record once and keeps the first', async () => {
      const session = unique('record');
      const first = encode('{"outcome":"first"}');
      expect(await store.getRecord(session, '3/call_1')).toBeUndefined();
      expect(await store.putRecord(session, '3/call_1', first)).toBe(true);
      expect(await store.putRecord(session, '3/call_1', encode('{"outcome":"second"}'))).toBe(false);
      expect(await store.getRecord(session, '3/call_1')).toEqual(first);
      expect(await store.getRecord(session, '3/call_2')).toBeUndefined();
    });

    it('keeps records apart by session and by name, whatever characters the name holds', async () => {
      const a = unique('records-a');
      const b = unique('records-b');
      const names = ['../../etc/passwd', 'a/b/c', '会话 🎉', 'x'.repeat(5_000), '', 'record:0'];
      for (const [index, name] of names.entries())
        expect(await store.putRecord(a, name, encode(`r${index}`))).toBe(true);
      for (const [index, name] of names.entries()) {
        expect(decode(await store.getRecord(a, name))).toBe(`r${index}`);
        expect(await store.getRecord(b, name)).toBeUndefined();
      }
    });

    it('keeps records and content apart', async () => {
      const session = unique('records-content');
      const { ref, bytes } = contentRefOf('content');
      await store.put(session, ref.key, bytes);
      expect(await store.getRecord(session, ref.key)).toBeUndefined();
      await store.putRecord(session, ref.key, encode('a record'));
      expect(await store.get(session, ref.key)).toEqual(bytes);
    });

    it('removes records with their session', async () => {
      const gone = unique('records-gone');
      const { ref, bytes } = contentRefOf('content of a session with a record');
      await store.put(gone, ref.key, bytes);
      await store.putRecord(gone, 'call', encode('outcome'));
      expect(await store.deleteSession(gone)).toBe(2);
      expect(await store.getRecord(gone, 'call')).toBeUndefined();
      expect(await store.putRecord(gone, 'call', encode('again'))).toBe(true);
      expect((await store.listSessions()).find((session) => session.sessionId === gone)?.items).toBe(1);
    });

    it('rejects a record whose bytes changed, naming the session and the record', async () => {
      const session = unique('records-tampered');
      await store.putRecord(session, 'tool-call/3/call_1', encode('{"outcome":"refunded"}'));
      await subject.corruptRecord(store, session, 'tool-call/3/call_1', encode('{"outcome":"not refunded"}'));
      const error = await rejection(store.getRecord(session, 'tool-call/3/call_1'));
      expect(error.code).toBe('CONTENT_CORRUPT');
      expect(error.message).toContain(session);
      expect(error.message).toContain('tool-call/3/call_1');
    });

    it('lets exactly one of concurrent record writers win, and every reader see its record whole', async () => {
      const session = unique('records-concurrent');
      const others = await Promise.all(Array.from({ length: 3 }, () => subject.open()));
      const records = [store, ...others].map((_, index) => encode(String(index).repeat(100_000)));
      try {
        const written = await Promise.all(
          [store, ...others].map((s, index) => s.putRecord(session, 'call', records[index] as Uint8Array)),
        );
        expect(written.filter(Boolean)).toHaveLength(1);
        const winner = records[written.indexOf(true)];
        const read = await Promise.all([store, ...others].map((s) => s.getRecord(session, 'call')));
        for (const bytes of read) expect(bytes).toEqual(winner);
      } finally {
        await Promise.all(others.map((s) => s.close()));
      }
    });
  });
}
