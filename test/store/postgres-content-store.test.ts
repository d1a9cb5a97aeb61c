import { inspect } from 'node:util';
import pg from 'pg';
import { afterAll, expect, inject, it } from 'vitest';
import { ContentStoreError } from '../../src/store/content-store-error';
import { contentRefOf, recordDigest } from '../../src/store/hash-content';
import { PostgresContentStore, contentTable } from '../../src/store/postgres-content-store';
import { freePort } from '../../src/devserver/free-port';
import { contentStoreContract } from './content-store-contract';

const url = inject('postgresUrl');
const admin = new pg.Pool({ connectionString: url, max: 1 });
afterAll(() => admin.end());

contentStoreContract('postgres', {
  open: () => Promise.resolve(new PostgresContentStore(url)),
  corrupt: async (_store, sessionId, key, bytes) => {
    await admin.query(`UPDATE ${contentTable} SET bytes = $3 WHERE session_id = $1 AND key = $2`, [
      sessionId,
      key,
      Buffer.from(bytes),
    ]);
  },
  age: async (_store, sessionId, when) => {
    await admin.query(`UPDATE ${contentTable} SET stored_at = $2 WHERE session_id = $1`, [sessionId, when]);
  },
  corruptRecord: async (_store, sessionId, name, bytes) => {
    // A record row keeps a header with the hash, then the bytes: keep the header, change the bytes.
    const headerBytes = 'toolrail-record sha256='.length + 65;
    await admin.query(
      `UPDATE ${contentTable} SET bytes = substring(bytes from 1 for $3) || $4 WHERE session_id = $1 AND key = $2`,
      [sessionId, `record:${recordDigest(name)}`, headerBytes, Buffer.from(bytes)],
    );
  },
});

it('reports an unreachable server as unavailable, naming the store but not the password', async () => {
  const port = await freePort();
  const store = new PostgresContentStore(`postgres://toolrail:s3cret-pw@127.0.0.1:${port}/content`);
  const { ref, bytes } = contentRefOf('nowhere');
  try {
    await store.put('s1', ref.key, bytes);
    throw new Error('expected a rejection');
  } catch (error) {
    expect(error).toBeInstanceOf(ContentStoreError);
    const failure = error as ContentStoreError;
    expect(failure.code).toBe('STORE_UNAVAILABLE');
    expect(failure.message).toContain(`postgres:toolrail@127.0.0.1:${port}/content`);
    expect(failure.message).not.toContain('s3cret-pw');
  } finally {
    await store.close();
  }
});

it('reports a connection string it cannot read without showing it, the error and its cause included', async () => {
  const store = new PostgresContentStore('postgres://toolrail:s3cret-pw@db.example:notaport/content');
  const { ref, bytes } = contentRefOf('nowhere');
  try {
    await store.put('s1', ref.key, bytes);
    throw new Error('expected a rejection');
  } catch (error) {
    expect((error as ContentStoreError).code).toBe('STORE_UNAVAILABLE');
    expect(inspect(error, { depth: 5 })).not.toContain('s3cret-pw');
  } finally {
    await store.close();
  }
});
