import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { ContentStore, StoredSession } from './content-store';
import { ContentStoreError } from './content-store-error';
import { openRecord, recordDigest, sealRecord, sha256Hex } from './hash-content';

/** Table holding every session's content. */
export const contentTable = 'toolrail_content';

/** Table holding the store's identity: one row with a random id, written once. */
export const identityTable = 'toolrail_store';

const schema = `
CREATE TABLE IF NOT EXISTS ${contentTable} (
  session_id text NOT NULL,
  key text NOT NULL,
  bytes bytea NOT NULL,
  stored_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (session_id, key)
);
CREATE INDEX IF NOT EXISTS ${contentTable}_session_stored_at ON ${contentTable} (session_id, stored_at);
CREATE TABLE IF NOT EXISTS ${identityTable} (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
`;

/** How long a connection attempt may take before the store counts as unavailable, in milliseconds. */
const connectTimeoutMs = 10_000;
/** How long one query may take before the store counts as unavailable, in milliseconds. */
const queryTimeoutMs = 60_000;

/** `postgres:user@host:port/db` for a connection string: never the password. */
export function describePostgres(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    const user = url.username === '' ? '' : `${decodeURIComponent(url.username)}@`;
    const host = url.host === '' ? (url.searchParams.get('host') ?? 'localhost') : url.host;
    return `postgres:${user}${host}${url.pathname}`;
  } catch {
    return 'postgres:(unreadable connection string)';
  }
}

/** Key column of a named record: a prefix no content key (lower-case hex) has, and the hash of the name. */
function recordKey(name: string): string {
  return `record:${recordDigest(name)}`;
}

/**
 * Content in one PostgreSQL table (`toolrail_content`, created on first use), for workers on
 * several machines; named records are rows of the same table (key `record:<sha256 of the name>`),
 * so retention removes them with the session's content. Its identity is a random id in the table
 * `toolrail_store`, so every host name that reaches the database names one store. Connection
 * errors, timeouts (10 s to connect, 60 s per query) and server errors (a full disk) reject with
 * `STORE_UNAVAILABLE`.
 */
export class PostgresContentStore implements ContentStore {
  readonly description: string;
  readonly #pool: pg.Pool;
  #ready: Promise<void> | undefined;
  #identity: Promise<string> | undefined;

  /** @param connection a `postgres://` connection string, or a pool the store then owns (closes). */
  constructor(connection: string | pg.Pool, description?: string) {
    if (typeof connection === 'string') {
      this.#pool = new pg.Pool({
        connectionString: connection,
        max: 4,
        connectionTimeoutMillis: connectTimeoutMs,
        query_timeout: queryTimeoutMs,
      });
      this.description = description ?? describePostgres(connection);
    } else {
      this.#pool = connection;
      this.description = description ?? 'postgres';
    }
    // An idle client losing its connection must not crash the process; the next query reports it.
    this.#pool.on('error', () => undefined);
  }

  #ensureTable(): Promise<void> {
    this.#ready ??= this.#pool.query(schema).then(
      () => undefined,
      (error: unknown) => {
        // Two processes creating the table at once: one loses the race on the catalog; the table exists.
        const code = (error as { code?: string } | undefined)?.code;
        if (code === '23505' || code === '42P07') return;
        this.#ready = undefined;
        throw error;
      },
    );
    return this.#ready;
  }

  async #query<R extends pg.QueryResultRow>(
    text: string,
    values: unknown[],
    sessionId?: string,
    key?: string,
  ): Promise<pg.QueryResult<R>> {
    try {
      await this.#ensureTable();
      return await this.#pool.query<R>(text, values);
    } catch (error) {
      throw ContentStoreError.unavailable(this.description, error, sessionId, key);
    }
  }

  identity(): Promise<string> {
    this.#identity ??= (async () => {
      await this.#query(`INSERT INTO ${identityTable} (id) VALUES ($1) ON CONFLICT DO NOTHING`, [randomUUID()]);
      const result = await this.#query<{ id: string }>(`SELECT id FROM ${identityTable}`, []);
      const id = result.rows[0]?.id;
      if (id === undefined) throw ContentStoreError.unavailable(this.description, `no row in ${identityTable}`);
      return id;
    })().catch((error: unknown) => {
      this.#identity = undefined;
      throw error;
    });
    return this.#identity;
  }

  async put(sessionId: string, key: string, bytes: Uint8Array): Promise<void> {
    await this.#query(
      `INSERT INTO ${contentTable} (session_id, key, bytes) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
      [sessionId, key, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)],
      sessionId,
      key,
    );
  }

  async get(sessionId: string, key: string): Promise<Uint8Array> {
    const result = await this.#query<{ bytes: Buffer }>(
      `SELECT bytes FROM ${contentTable} WHERE session_id = $1 AND key = $2`,
      [sessionId, key],
      sessionId,
      key,
    );
    const row = result.rows[0];
    if (row === undefined) throw ContentStoreError.missing(this.description, sessionId, key);
    const actual = sha256Hex(row.bytes);
    if (actual !== key) throw ContentStoreError.corrupt(this.description, sessionId, key, actual);
    return new Uint8Array(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength);
  }

  async putRecord(sessionId: string, name: string, bytes: Uint8Array): Promise<boolean> {
    const result = await this.#query(
      `INSERT INTO ${contentTable} (session_id, key, bytes) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
      [sessionId, recordKey(name), Buffer.from(sealRecord(bytes))],
      sessionId,
      `record ${JSON.stringify(name)}`,
    );
    return result.rowCount === 1;
  }

  async getRecord(sessionId: string, name: string): Promise<Uint8Array | undefined> {
    const result = await this.#query<{ bytes: Buffer }>(
      `SELECT bytes FROM ${contentTable} WHERE session_id = $1 AND key = $2`,
      [sessionId, recordKey(name)],
      sessionId,
      `record ${JSON.stringify(name)}`,
    );
    const row = result.rows[0];
    if (row === undefined) return undefined;
    const opened = openRecord(new Uint8Array(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength));
    if ('corrupt' in opened)
      throw ContentStoreError.corrupt(
        this.description,
        sessionId,
        `record ${JSON.stringify(name)}`,
        opened.corrupt.actual,
      );
    return opened.bytes;
  }

  async deleteSession(sessionId: string): Promise<number> {
    const result = await this.#query(`DELETE FROM ${contentTable} WHERE session_id = $1`, [sessionId], sessionId);
    return result.rowCount ?? 0;
  }

  async listSessions(): Promise<StoredSession[]> {
    const result = await this.#query<{ session_id: string; items: string; bytes: string; last_write: Date }>(
      `SELECT session_id, count(*) AS items, sum(octet_length(bytes)) AS bytes, max(stored_at) AS last_write
         FROM ${contentTable} GROUP BY session_id`,
      [],
    );
    return result.rows.map((row) => ({
      sessionId: row.session_id,
      items: Number(row.items),
      bytes: Number(row.bytes),
      lastWriteAt: row.last_write,
    }));
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }
}
