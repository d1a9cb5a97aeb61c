import { randomUUID } from 'node:crypto';
import { renameSync, writeFileSync } from 'node:fs';
import { link, mkdir, readFile, readdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import type { ContentStore, StoredSession } from './content-store';
import { ContentStoreError } from './content-store-error';
import { openRecord, recordDigest, sealRecord, sha256Hex } from './hash-content';

/** Longest session directory name built from the hex of the id; longer ids are hashed. */
const maxHexNameChars = 160;
/** File holding the original id in a session directory named by hash. */
const sessionIdFile = 'session-id';
/** Directory of a session's named records. */
const recordsDirectory = 'records';
/** File in the store's root holding its identity (a random id, written once). */
const storeIdFile = 'store-id';
const keyPattern = /^[0-9a-f]{64}$/;
/**
 * Largest content written without the thread pool, in bytes (16 KiB). A small file's write and
 * rename through the pool cost three to four times the CPU of the calls themselves (about 120 µs
 * against 35 µs on a local disk) and a turn writes three; a larger one goes through the pool so
 * it never holds the worker's event loop for long.
 */
const directWriteBytes = 16 * 1024;

/**
 * Directory name of a session: `x-<hex of the UTF-8 id>` when short enough, else `h-<sha256 of the id>`
 * (the id is then kept in a `session-id` file). Safe on every file system: `[0-9a-fhx-]` only.
 */
export function sessionDirectoryName(sessionId: string): string {
  const hex = Buffer.from(sessionId, 'utf8').toString('hex');
  return hex.length <= maxHexNameChars ? `x-${hex}` : `h-${sha256Hex(Buffer.from(sessionId, 'utf8'))}`;
}

let temporaryFiles = 0;

/**
 * A temporary file next to `file`, unique to this write: the process, the thread and a count (no
 * random bytes to draw).
 */
function temporaryName(file: string): string {
  temporaryFiles += 1;
  return `${file}.${process.pid}.${threadId}.${temporaryFiles}.tmp`;
}

function isNotFound(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

function isAlreadyThere(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'EEXIST';
}

/**
 * The embedded default store: one file per content under `<root>/sessions/<encoded session id>/<key>`
 * (earlier versions wrote `…/<key[0..2]>/<key>`, which it still reads: a directory per two
 * characters cost most short sessions a directory per write), and one per named record under
 * `<root>/sessions/<encoded session id>/records/<sha256 of the name>`. No set-up; for the worker
 * processes of **one machine** (writes go to a temporary file, then are renamed or, for records,
 * hard-linked into place, so a record is written once). Its identity is a random id in
 * `<root>/store-id`, so another machine's directory (even at the same path) is another store,
 * and one directory shared over a network file system is one store.
 */
export class DirectoryContentStore implements ContentStore {
  readonly description: string;
  readonly #sessions: string;
  #identity: Promise<string> | undefined;

  /** @param root directory holding the store; created on first write. */
  constructor(readonly root: string) {
    this.description = `directory:${os.hostname()}:${root}`;
    this.#sessions = path.join(root, 'sessions');
  }

  identity(): Promise<string> {
    this.#identity ??= this.#readOrCreateIdentity().catch((error: unknown) => {
      this.#identity = undefined;
      throw ContentStoreError.unavailable(this.description, error);
    });
    return this.#identity;
  }

  async #readOrCreateIdentity(): Promise<string> {
    const file = path.join(this.root, storeIdFile);
    try {
      return (await readFile(file, 'utf8')).trim();
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    await mkdir(this.root, { recursive: true });
    const temp = temporaryName(file);
    await writeFile(temp, `${randomUUID()}\n`);
    try {
      // A hard link never replaces a file: when two processes create the id at once, the first one stays.
      await link(temp, file).catch((error: unknown) => {
        if (!isAlreadyThere(error)) throw error;
      });
    } finally {
      await unlink(temp).catch(() => undefined);
    }
    return (await readFile(file, 'utf8')).trim();
  }

  #sessionDir(sessionId: string): string {
    return path.join(this.#sessions, sessionDirectoryName(sessionId));
  }

  #file(sessionId: string, key: string): string {
    if (!keyPattern.test(key)) {
      throw new ContentStoreError({
        code: 'INVALID_STORE',
        message: `Key ${JSON.stringify(key)} of session ${JSON.stringify(sessionId)} is not a lower-case hex SHA-256: pass the key from contentRefOf.`,
        store: this.description,
        sessionId,
        key,
      });
    }
    return path.join(this.#sessionDir(sessionId), key);
  }

  /** Where earlier versions wrote a content (a directory per the key's first two characters). */
  #earlierFile(sessionId: string, key: string): string {
    return path.join(this.#sessionDir(sessionId), key.slice(0, 2), key);
  }

  async put(sessionId: string, key: string, bytes: Uint8Array): Promise<void> {
    const file = this.#file(sessionId, key);
    // Written at once: the same key holds the same bytes, so writing it again changes nothing.
    try {
      await this.#inItsDirectory(sessionId, file, () => this.#writeAtomic(file, bytes));
    } catch (error) {
      // Content already there (where this version or an earlier one wrote it) needs no write: a
      // full disk does not fail it.
      const there = await stat(file).then(
        () => true,
        () =>
          stat(this.#earlierFile(sessionId, key)).then(
            () => true,
            () => false,
          ),
      );
      if (!there) throw ContentStoreError.unavailable(this.description, error, sessionId, key);
    }
  }

  /**
   * Runs `write` (of `file` or a temporary file beside it), and again once `file`'s directory is
   * made when the first try finds none: a directory is made only when it is not there yet.
   */
  async #inItsDirectory(sessionId: string, file: string, write: () => Promise<void>): Promise<void> {
    await write().catch(async (error: unknown) => {
      if (!isNotFound(error)) throw error;
      await this.#makeDirectory(sessionId, path.dirname(file));
      await write();
    });
  }

  /**
   * Creates `dir` in the session's directory. A session directory named by a hash gets the file
   * naming its session first: a directory in it exists only once that file does, so the writes
   * that find their directory there (and skip this) never leave the session unnamed.
   */
  async #makeDirectory(sessionId: string, dir: string): Promise<void> {
    const sessionDir = this.#sessionDir(sessionId);
    if (path.basename(sessionDir).startsWith('h-')) {
      await mkdir(sessionDir, { recursive: true });
      await this.#writeAtomic(path.join(sessionDir, sessionIdFile), sessionId);
    }
    await mkdir(dir, { recursive: true });
  }

  async #writeAtomic(file: string, data: Uint8Array | string): Promise<void> {
    const temp = temporaryName(file);
    const direct = (typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength) <= directWriteBytes;
    try {
      if (direct) writeFileSync(temp, data);
      else await writeFile(temp, data);
    } catch (error) {
      // A missing directory leaves no temporary file behind (the usual failure: a new directory's first write).
      if (!isNotFound(error)) await unlink(temp).catch(() => undefined);
      throw error;
    }
    try {
      if (direct) renameSync(temp, file);
      else await rename(temp, file);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw error;
    }
  }

  async get(sessionId: string, key: string): Promise<Uint8Array> {
    const file = this.#file(sessionId, key);
    let bytes: Buffer;
    try {
      bytes = await readFile(file).catch((error: unknown) => {
        if (!isNotFound(error)) throw error;
        return readFile(this.#earlierFile(sessionId, key));
      });
    } catch (error) {
      if (isNotFound(error)) throw ContentStoreError.missing(this.description, sessionId, key);
      throw ContentStoreError.unavailable(this.description, error, sessionId, key);
    }
    const actual = sha256Hex(bytes);
    if (actual !== key) throw ContentStoreError.corrupt(this.description, sessionId, key, actual);
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  #recordFile(sessionId: string, name: string): string {
    return path.join(this.#sessionDir(sessionId), recordsDirectory, recordDigest(name));
  }

  async putRecord(sessionId: string, name: string, bytes: Uint8Array): Promise<boolean> {
    const file = this.#recordFile(sessionId, name);
    try {
      const temp = temporaryName(file);
      const sealed = sealRecord(bytes);
      await this.#inItsDirectory(sessionId, file, () => writeFile(temp, sealed));
      try {
        // A hard link never replaces an existing file: the first writer's record stays.
        await link(temp, file);
        return true;
      } catch (error) {
        if (isAlreadyThere(error)) return false;
        throw error;
      } finally {
        await unlink(temp).catch(() => undefined);
      }
    } catch (error) {
      throw ContentStoreError.unavailable(this.description, error, sessionId, `record ${JSON.stringify(name)}`);
    }
  }

  async getRecord(sessionId: string, name: string): Promise<Uint8Array | undefined> {
    let stored: Buffer;
    try {
      stored = await readFile(this.#recordFile(sessionId, name));
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw ContentStoreError.unavailable(this.description, error, sessionId, `record ${JSON.stringify(name)}`);
    }
    const opened = openRecord(new Uint8Array(stored.buffer, stored.byteOffset, stored.byteLength));
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
    const dir = this.#sessionDir(sessionId);
    try {
      const count = (await this.#storedFiles(dir)).length;
      await rm(dir, { recursive: true, force: true });
      return count;
    } catch (error) {
      throw ContentStoreError.unavailable(this.description, error, sessionId);
    }
  }

  async listSessions(): Promise<StoredSession[]> {
    let names: string[];
    try {
      names = await readdir(this.#sessions);
    } catch (error) {
      if (isNotFound(error)) return [];
      throw ContentStoreError.unavailable(this.description, error);
    }
    const sessions: StoredSession[] = [];
    for (const name of names) {
      const dir = path.join(this.#sessions, name);
      try {
        const sessionId = await this.#sessionIdOf(name, dir);
        if (sessionId === undefined) continue;
        let bytes = 0;
        let lastWrite = (await stat(dir)).mtimeMs;
        const files = await this.#storedFiles(dir);
        for (const file of files) {
          const info = await stat(file).catch(() => undefined);
          if (info === undefined) continue;
          bytes += info.size;
          lastWrite = Math.max(lastWrite, info.mtimeMs);
        }
        sessions.push({ sessionId, items: files.length, bytes, lastWriteAt: new Date(lastWrite) });
      } catch (error) {
        if (isNotFound(error)) continue;
        throw ContentStoreError.unavailable(this.description, error);
      }
    }
    return sessions;
  }

  async #sessionIdOf(name: string, dir: string): Promise<string | undefined> {
    if (name.startsWith('x-')) return Buffer.from(name.slice(2), 'hex').toString('utf8');
    if (name.startsWith('h-')) return (await readFile(path.join(dir, sessionIdFile), 'utf8')).toString();
    return undefined;
  }

  /** Paths of the content and record files under `dir` (both are named by a SHA-256). */
  async #storedFiles(dir: string): Promise<string[]> {
    try {
      const entries = await readdir(dir, { withFileTypes: true, recursive: true });
      return entries
        .filter((entry) => entry.isFile() && keyPattern.test(entry.name))
        .map((entry) => path.join(entry.parentPath, entry.name));
    } catch (error) {
      if (isNotFound(error)) return [];
      throw error;
    }
  }

  async close(): Promise<void> {}
}
