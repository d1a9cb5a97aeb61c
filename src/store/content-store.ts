/** What a store holds for one session: for retention (`toolrail store prune`). */
export interface StoredSession {
  sessionId: string;
  /** Content items and named records. */
  items: number;
  /** Their size, in bytes. */
  bytes: number;
  /** When the newest of them was written. */
  lastWriteAt: Date;
}

/**
 * Where a session's conversation lives: immutable content addressed by its SHA-256, in one
 * namespace per session. Workers write each message once and pass references around; the
 * workflow never holds the bytes. Besides content, a session holds small write-once named records
 * (what a tool call's activity returned, so a completion the Temporal server lost can be recovered);
 * they are removed with the session's content.
 */
export interface ContentStore {
  /**
   * A short name for logs and errors that says where the store is, never a password: e.g.
   * `directory:host-1:/var/lib/toolrail` or `postgres:toolrail@db:5432/toolrail`.
   */
  readonly description: string;
  /**
   * The store's identity: the same for every process that reaches this store (however it names
   * it), different for another store. A session keeps the identity of the store it started on, and
   * a worker whose store has another identity does not serve it. The directory and PostgreSQL
   * stores keep a random id in the store itself (created on first use). Without this method, the
   * `description` is the identity.
   */
  identity?(): Promise<string>;
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
  /**
   * The record `name` of `sessionId`, or `undefined` when none was written (or it was removed).
   * Records are hash-checked like content: one whose bytes changed rejects with `CONTENT_CORRUPT`.
   */
  getRecord(sessionId: string, name: string): Promise<Uint8Array | undefined>;
  /** Removes everything stored for `sessionId` (content and records); resolves to the number of items removed. */
  deleteSession(sessionId: string): Promise<number>;
  /** Every session that has content or records in the store, with its size and newest write. */
  listSessions(): Promise<StoredSession[]>;
  /** Releases connections and handles. */
  close(): Promise<void>;
}

/** Who a store is: its {@link ContentStore.identity} and its description. Plain JSON. */
export interface StoreIdentity {
  id: string;
  description: string;
}

/** The identity of `store` (its `description` when it has no `identity()`). */
export async function readStoreIdentity(store: ContentStore): Promise<StoreIdentity> {
  const id = store.identity === undefined ? store.description : await store.identity();
  return { id, description: store.description };
}
