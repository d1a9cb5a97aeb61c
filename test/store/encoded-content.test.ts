import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Payload, PayloadCodec, SerializationContext } from '@temporalio/common';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AesGcmCodec } from '../../examples/payload-codec/aes-gcm-codec';
import type { ContentStore } from '../../src/store/content-store';
import { ContentStoreError } from '../../src/store/content-store-error';
import { DirectoryContentStore } from '../../src/store/directory-content-store';
import { encodedContent } from '../../src/store/encoded-content';
import { sha256Hex } from '../../src/store/hash-content';
import { PostgresContentStore, contentTable } from '../../src/store/postgres-content-store';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (bytes: Uint8Array | undefined): string | undefined =>
  bytes === undefined ? undefined : new TextDecoder().decode(bytes);
const contains = (bytes: Uint8Array, marker: string): boolean => Buffer.from(bytes).includes(marker);

const codecWithKey = (id: string): AesGcmCodec => new AesGcmCodec(new Map([[id, randomBytes(32)]]), id);

let counter = 0;
const unique = (name: string): string => `${name}-${process.pid}-${++counter}-${Math.random().toString(36).slice(2)}`;

async function rejection(promise: Promise<unknown>): Promise<ContentStoreError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ContentStoreError);
    return error as ContentStoreError;
  }
  throw new Error('expected a rejection');
}

/** A store and a way to read what it holds for a session without toolrail in between. */
interface Subject {
  open(): Promise<ContentStore>;
  /** Every stored item (content and records) of `sessionId`, as the store's files or rows hold them. */
  raw(sessionId: string): Promise<Uint8Array[]>;
}

function encodedContentBehaviour(name: string, subject: Subject): void {
  describe(`payload codecs over the ${name} store`, () => {
    let store: ContentStore;
    const codec = codecWithKey('key-1');
    beforeAll(async () => {
      store = await subject.open();
    });
    afterAll(() => store.close());

    it('without codecs stores the bytes as they are, under the SHA-256 of the content', async () => {
      const session = unique('plain');
      const content = encodedContent(store);
      const key = await content.put(session, utf8('plain words'));
      expect(key).toBe(sha256Hex(utf8('plain words')));
      expect(text(await store.get(session, key))).toBe('plain words');
      expect(text(await content.get(session, key))).toBe('plain words');
    });

    it('with a codec stores no plaintext, under a key that is the hash of the stored bytes, not of the content', async () => {
      const session = unique('encrypted');
      const content = encodedContent(store, { payloadCodecs: [codec] });
      const secret = `the secret marker ${unique('m')}`;
      const key = await content.put(session, utf8(secret));
      expect(key).not.toBe(sha256Hex(utf8(secret)));
      const stored = await store.get(session, key);
      expect(sha256Hex(stored)).toBe(key);
      expect(contains(stored, secret)).toBe(false);
      expect(text(await content.get(session, key))).toBe(secret);
      // A fresh nonce each time: the same content twice is two unrelated keys, both readable.
      const again = await content.put(session, utf8(secret));
      expect(again).not.toBe(key);
      expect(text(await content.get(session, again))).toBe(secret);
      for (const bytes of await subject.raw(session)) expect(contains(bytes, secret)).toBe(false);
    });

    it('with a codec encodes named records, keeping the first one written', async () => {
      const session = unique('records');
      const content = encodedContent(store, { payloadCodecs: [codec] });
      expect(await content.putRecord(session, 'tool-call/1/c1', utf8('first secret outcome'))).toBe(true);
      expect(await content.putRecord(session, 'tool-call/1/c1', utf8('second outcome'))).toBe(false);
      expect(text(await content.getRecord(session, 'tool-call/1/c1'))).toBe('first secret outcome');
      expect(await content.getRecord(session, 'tool-call/1/c2')).toBeUndefined();
      const raw = await subject.raw(session);
      expect(raw).toHaveLength(1);
      expect(raw.some((bytes) => contains(bytes, 'first secret'))).toBe(false);
    });

    it('refuses content stored before the codecs were set, naming the key and the store', async () => {
      const session = unique('before');
      const key = await encodedContent(store).put(session, utf8('written in plaintext'));
      await encodedContent(store).putRecord(session, 'tool-call/0/c1', utf8('{}'));
      const withCodecs = encodedContent(store, { payloadCodecs: [codec] });
      const failure = await rejection(withCodecs.get(session, key));
      expect(failure.code).toBe('CONTENT_UNDECODABLE');
      expect(failure.key).toBe(key);
      expect(failure.message).toContain(`Content ${key} of session ${JSON.stringify(session)} in ${store.description}`);
      expect(failure.message).toContain('stored without payload codecs');
      const record = await rejection(withCodecs.getRecord(session, 'tool-call/0/c1'));
      expect(record.message).toContain('record "tool-call/0/c1"');
    });

    it('refuses encoded content where no codecs are configured, saying how to give them', async () => {
      const session = unique('no-codec');
      const key = await encodedContent(store, { payloadCodecs: [codec] }).put(session, utf8('encrypted words'));
      const failure = await rejection(encodedContent(store).get(session, key));
      expect(failure.code).toBe('CONTENT_UNDECODABLE');
      expect(failure.message).toContain(`Content ${key} of session ${JSON.stringify(session)} in ${store.description}`);
      expect(failure.message).toContain('--codec-module');
    });

    it('refuses content encrypted with another key, naming the key and the store', async () => {
      const session = unique('other-key');
      const key = await encodedContent(store, { payloadCodecs: [codec] }).put(session, utf8('for key 1 only'));
      for (const other of [codecWithKey('key-2'), codecWithKey('key-1')]) {
        const failure = await rejection(encodedContent(store, { payloadCodecs: [other] }).get(session, key));
        expect(failure.code).toBe('CONTENT_UNDECODABLE');
        expect(failure.message).toContain(
          `Content ${key} of session ${JSON.stringify(session)} in ${store.description}`,
        );
        expect(failure.message).toContain('other codecs or another key');
      }
    });

    it('still checks the hash of what it reads', async () => {
      const session = unique('hash');
      const content = encodedContent(store, { payloadCodecs: [codec] });
      const key = await content.put(session, utf8('checked'));
      await store.deleteSession(session);
      await store.put(session, key, utf8('tampered'));
      const failure = await rejection(content.get(session, key));
      expect(failure.code).toBe('CONTENT_CORRUPT');
    });
  });
}

describe.each([
  {
    name: 'directory',
    subject: (): Subject => {
      const root = mkdtempSync(path.join(os.tmpdir(), 'toolrail-encoded-'));
      afterAll(() => rmSync(root, { recursive: true, force: true }));
      return {
        open: () => Promise.resolve(new DirectoryContentStore(root)),
        raw: async (sessionId) => {
          const { readdir, readFile } = await import('node:fs/promises');
          const { sessionDirectoryName } = await import('../../src/store/directory-content-store');
          const dir = path.join(root, 'sessions', sessionDirectoryName(sessionId));
          const entries = await readdir(dir, { withFileTypes: true, recursive: true });
          return Promise.all(
            entries.filter((entry) => entry.isFile()).map((entry) => readFile(path.join(entry.parentPath, entry.name))),
          );
        },
      };
    },
  },
  {
    name: 'PostgreSQL',
    subject: (): Subject => {
      const url = inject('postgresUrl');
      const admin = new pg.Pool({ connectionString: url, max: 1 });
      afterAll(() => admin.end());
      return {
        open: () => Promise.resolve(new PostgresContentStore(url)),
        raw: async (sessionId) =>
          (
            await admin.query<{ bytes: Buffer }>(`SELECT bytes FROM ${contentTable} WHERE session_id = $1`, [sessionId])
          ).rows.map((row) => row.bytes),
      };
    },
  },
])('$name', ({ name, subject }) => encodedContentBehaviour(name, subject()));

/** A codec that wraps each payload in one of its own encoding, recording the contexts it was given. */
function wrappingCodec(encoding: string, contexts: (SerializationContext | undefined)[]): PayloadCodec {
  return {
    encode: (payloads, context) => {
      contexts.push(context);
      return Promise.resolve(
        payloads.map((payload): Payload => ({
          metadata: { encoding: utf8(encoding) },
          data: Buffer.from(
            JSON.stringify({ inner: Buffer.from(JSON.stringify(payloadJson(payload))).toString('base64') }),
          ),
        })),
      );
    },
    decode: (payloads, context) => {
      contexts.push(context);
      return Promise.resolve(
        payloads.map((payload) => {
          if (text(payload.metadata?.encoding ?? undefined) !== encoding) return payload;
          const { inner } = JSON.parse(text(payload.data ?? undefined) ?? '{}') as { inner: string };
          return payloadFromJson(JSON.parse(Buffer.from(inner, 'base64').toString('utf8')) as JsonPayload);
        }),
      );
    },
  };
}

interface JsonPayload {
  metadata: Record<string, string>;
  data: string;
}
const payloadJson = (payload: Payload): JsonPayload => ({
  metadata: Object.fromEntries(
    Object.entries(payload.metadata ?? {}).map(([key, value]) => [key, Buffer.from(value ?? []).toString('base64')]),
  ),
  data: Buffer.from(payload.data ?? []).toString('base64'),
});
const payloadFromJson = (json: JsonPayload): Payload => ({
  metadata: Object.fromEntries(
    Object.entries(json.metadata).map(([key, value]) => [key, Buffer.from(value, 'base64')]),
  ),
  data: Buffer.from(json.data, 'base64'),
});

describe('the codecs as Temporal runs them', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'toolrail-codec-order-'));
  const store = new DirectoryContentStore(root);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('encodes in the order given and decodes in reverse, with the session as the workflow of the serialization context', async () => {
    const contexts: (SerializationContext | undefined)[] = [];
    const content = encodedContent(store, {
      payloadCodecs: [wrappingCodec('test/inner', contexts), wrappingCodec('test/outer', contexts)],
      namespace: 'ns-1',
    });
    const key = await content.put('session-9', utf8('layered'));
    expect(Buffer.from(await store.get('session-9', key)).includes('test/outer')).toBe(true);
    expect(text(await content.get('session-9', key))).toBe('layered');
    expect(contexts).toEqual(Array(4).fill({ type: 'workflow', namespace: 'ns-1', workflowId: 'session-9' }));
    // Only the outer codec: the inner encoding is left, and the read says so.
    const outerOnly = encodedContent(store, { payloadCodecs: [wrappingCodec('test/outer', [])], namespace: 'ns-1' });
    const failure = await rejection(outerOnly.get('session-9', key));
    expect(failure.message).toContain('the codecs left it as test/inner');
  });
});
