import pg from 'pg';
import type { ContentStore } from './content-store';
import { ContentStoreError } from './content-store-error';
import { sha256Hex } from './hash-content';

/**
 * The production content store: a PostgreSQL table shared by workers on many machines, through
 * `pg`'s connection pool. The table is created on first use. Writes are idempotent (`ON CONFLICT DO
 * NOTHING` on the session and key); reads check the hash.
 */
export function createPostgresContentStore(url: string): ContentStore {
  const pool = new pg.Pool({ connectionString: url, max: 10, idleTimeoutMillis: 10_000 });
  // An idle client's error (a restarted server) must not crash the worker: the next query reconnects.
  pool.on('error', () => undefined);
  const description = `postgres:${redact(url)}`;
  let ready: Promise<void> | undefined;

  const query = async <Row extends pg.QueryResultRow>(
    text: string,
    values: unknown[],
    about: { sessionId?: string; key?: string } = {},
  ): Promise<pg.QueryResult<Row>> => {
    try {
      ready ??= createTable(pool).catch((error: unknown) => {
        ready = undefined;
        throw error;
      });
      await ready;
      return await pool.query<Row>(text, values);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      const session = about.sessionId === undefined ? '' : `session ${about.sessionId}: `;
      throw new ContentStoreError({
        code: 'STORE_UNAVAILABLE',
        ...about,
        cause: error,
        message: `${session}the content store ${description} is unavailable (${detail}); check that the server runs and TOOLRAIL_CONTENT_STORE is right`,
      });
    }
  };

  return {
    description,
    async put(sessionId, key, bytes) {
      await query(
        'INSERT INTO toolrail_content (session_id, key, bytes) VALUES ($1, $2, $3) ON CONFLICT (session_id, key) DO NOTHING',
        [sessionId, key, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)],
        { sessionId, key },
      );
    },
    async get(sessionId, key) {
      const result = await query<{ bytes: Buffer }>(
        'SELECT bytes FROM toolrail_content WHERE session_id = $1 AND key = $2',
        [sessionId, key],
        { sessionId, key },
      );
      const bytes = result.rows[0]?.bytes;
      if (bytes === undefined) {
        throw new ContentStoreError({
          code: 'CONTENT_MISSING',
          sessionId,
          key,
          message: `session ${sessionId}: content ${key} is missing from ${description} (was the session's content removed?)`,
        });
      }
      if (sha256Hex(bytes) !== key) {
        throw new ContentStoreError({
          code: 'CONTENT_CORRUPT',
          sessionId,
          key,
          message: `session ${sessionId}: content ${key} in ${description} does not match its hash (the row was changed)`,
        });
      }
      return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
    async deleteSession(sessionId) {
      const result = await query('DELETE FROM toolrail_content WHERE session_id = $1', [sessionId], { sessionId });
      return result.rowCount ?? 0;
    },
    async deleteSessionsOlderThan(before) {
      const result = await query<{ session_id: string }>(
        `DELETE FROM toolrail_content WHERE session_id IN (
           SELECT session_id FROM toolrail_content GROUP BY session_id HAVING max(stored_at) < $1
         ) RETURNING session_id`,
        [before],
      );
      return [...new Set(result.rows.map((row) => row.session_id))];
    },
    close: () => pool.end(),
  };
}

async function createTable(pool: pg.Pool): Promise<void> {
  try {
    await createTableOnce(pool);
  } catch (error) {
    // Two workers creating the table at once: one wins, the other sees a duplicate; both go on.
    const code = (error as { code?: unknown }).code;
    if (code !== '23505' && code !== '42P07') throw error;
  }
}

async function createTableOnce(pool: pg.Pool): Promise<void> {
  await pool.query(`CREATE TABLE IF NOT EXISTS toolrail_content (
    session_id text NOT NULL,
    key text NOT NULL,
    bytes bytea NOT NULL,
    stored_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (session_id, key)
  )`);
  await pool.query('CREATE INDEX IF NOT EXISTS toolrail_content_stored_at ON toolrail_content (session_id, stored_at)');
}

/** The URL without its password. */
function redact(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:…@');
}
