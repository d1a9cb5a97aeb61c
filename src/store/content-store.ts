/**
 * Where a session's conversation lives: immutable content addressed by its SHA-256, in one
 * namespace per session. Workers write each message once and pass references around; the
 * workflow never holds the bytes. Besides content, a session holds small write-once named records
 * (what a tool call's activity returned, so a completion the Temporal server lost can be recovered);
 * they are removed with the session's content.
 */
export interface ContentStore {
  /** A short name for logs and errors, e.g. `directory:/var/lib/toolrail` or `postgres:toolrail@db`. */
  readonly description: string;
  /**
   * Stores `bytes` for `sessionId` under `key` (the SHA-256 of `bytes`, lower-case hex). Idempotent:
   * writing the same key again (a retried or replayed activity) changes nothing.
   */
  put(sessionId: string, key: string, bytes: Uint8Array): Promise<void>;
  /**
   * Reads the content stored under `key` for `sessionId` and checks its hash. Rejects with a
   * `ContentStoreError` (code `CONTENT_MISSING` or `CONTENT_CORRUPT`) naming the session and the key.
   */
  get(sessionId: string, key: string): Promise<Uint8Array>;
  /**
   * Writes the record `name` of `sessionId`, once: when the name already holds a record, that one is
   * kept and this resolves to `false` (else `true`). A reader sees the whole record or none of it.
   * Names are any strings.
   */
  putRecord(sessionId: string, name: string, bytes: Uint8Array): Promise<boolean>;
  /** The record `name` of `sessionId`, or `undefined` when none was written (or it was removed). */
  getRecord(sessionId: string, name: string): Promise<Uint8Array | undefined>;
  /** Removes everything stored for `sessionId` (content and records); resolves to the number of items removed. */
  deleteSession(sessionId: string): Promise<number>;
  /** Removes every session (content and records) whose newest write is older than `before`; resolves to the session ids removed. */
  deleteSessionsOlderThan(before: Date): Promise<string[]>;
  /** Releases connections and handles. */
  close(): Promise<void>;
}
