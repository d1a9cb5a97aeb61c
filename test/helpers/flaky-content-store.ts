import type { ContentStore, StoredSession } from '../../src/store/content-store';
import { ContentStoreError } from '../../src/store/content-store-error';

/**
 * A content store that fails on demand, over a real one: while `failing` says so, writes (and, with
 * `reads`, reads) reject as an unavailable store does, naming `cause`. Counts the operations it
 * refused, so a test can wait until a worker has tried (and is trying again) without sleeping.
 */
export class FlakyContentStore implements ContentStore {
  readonly description: string;
  /** Operations refused so far. */
  refused = 0;
  #failing: { cause: string; reads: boolean; writes: boolean; writesLeft: number } | undefined;

  constructor(readonly inner: ContentStore) {
    this.description = inner.description;
  }

  /**
   * From now on (or after `afterWrites` more writes succeeded), writes (unless `writes: false`) and
   * reads (with `reads`) fail with `cause` until {@link heal}.
   */
  fail(
    cause: string,
    { reads = false, writes = true, afterWrites = 0 }: { reads?: boolean; writes?: boolean; afterWrites?: number } = {},
  ): void {
    this.#failing = { cause, reads, writes, writesLeft: afterWrites };
  }

  heal(): void {
    this.#failing = undefined;
  }

  #check(kind: 'read' | 'write', sessionId?: string, key?: string): void {
    const failing = this.#failing;
    if (failing !== undefined && kind === 'write' && failing.writesLeft > 0) {
      failing.writesLeft -= 1;
      return;
    }
    if (failing === undefined || (kind === 'read' ? !failing.reads : !failing.writes)) return;
    this.refused += 1;
    throw ContentStoreError.unavailable(this.description, new Error(failing.cause), sessionId, key);
  }

  identity(): Promise<string> {
    return this.inner.identity?.() ?? Promise.resolve(this.description);
  }

  async put(sessionId: string, key: string, bytes: Uint8Array): Promise<void> {
    this.#check('write', sessionId, key);
    await this.inner.put(sessionId, key, bytes);
  }

  async get(sessionId: string, key: string): Promise<Uint8Array> {
    this.#check('read', sessionId, key);
    return this.inner.get(sessionId, key);
  }

  async putRecord(sessionId: string, name: string, bytes: Uint8Array): Promise<boolean> {
    this.#check('write', sessionId, `record ${JSON.stringify(name)}`);
    return this.inner.putRecord(sessionId, name, bytes);
  }

  async getRecord(sessionId: string, name: string): Promise<Uint8Array | undefined> {
    this.#check('read', sessionId, `record ${JSON.stringify(name)}`);
    return this.inner.getRecord(sessionId, name);
  }

  deleteSession(sessionId: string): Promise<number> {
    return this.inner.deleteSession(sessionId);
  }

  listSessions(): Promise<StoredSession[]> {
    return this.inner.listSessions();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
