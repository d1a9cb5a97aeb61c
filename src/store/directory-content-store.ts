import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, readdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ContentStore } from './content-store';
import { ContentStoreError } from './content-store-error';
import { recordDigest, sha256Hex } from './hash-content';

/** Longest session directory name built from the hex of the id; longer ids are hashed. */
const maxHexNameChars = 160;
/** File holding the original id in a session directory named by hash. */
const sessionIdFile = 'session-id';
/** Directory of a session's named records. */
const recordsDirectory = 'records';
const keyPattern = /^[0-9a-f]{64}$/;

/**
 * Directory name of a session: `x-<hex of the UTF-8 id>` when short enough, else `h-<sha256 of the id>`
 * (the id is then kept in a `session-id` file). Safe on every file system: `[0-9a-fhx-]` only.
 */
export function sessionDirectoryName(sessionId: string): string {
  const hex = Buffer.from(sessionId, 'utf8').toString('hex');
  return hex.length <= maxHexNameChars ? `x-${hex}` : `h-${sha256Hex(Buffer.from(sessionId, 'utf8'))}`;
}

/** A temporary file next to `file`, unique to this process and write. */
function temporaryName(file: string): string {
  return `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
}

function isNotFound(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

/**
 * The embedded default store: one file per content under
 * `<root>/sessions/<encoded session id>/<key[0..2]>/<key>`, and one per named record under
 * `<root>/sessions/<encoded session id>/records/<sha256 of the name>`. No set-up; safe for every
 * worker process on one machine (writes go to a temporary file, then are renamed or, for records,
 * hard-linked into place, so a record is written once).
 */
export class DirectoryContentStore implements ContentStore {
  readonly description: string;
  readonly #sessions: string;

  /** @param root directory holding the store; created on first write. */
  constructor(readonly root: string) {
    this.description = `directory:${root}`;
    this.#sessions = path.join(root, 'sessions');
  }

  #sessionDir(sessionId: string): string {
    return path.join(this.#sessions, sessionDirectoryName(sessionId));
  }

  #file(sessionId: string, key: string): string {
    if (!keyPattern.test(key)) {
      throw new ContentStoreError(
        'INVALID_STORE',
        `Key ${JSON.stringify(key)} of session ${JSON.stringify(sessionId)} is not a lower-case hex SHA-256: pass the key from contentRefOf.`,
        { sessionId, key },
      );
    }
    return path.join(this.#sessionDir(sessionId), key.slice(0, 2), key);
  }

  async put(sessionId: string, key: string, bytes: Uint8Array): Promise<void> {
    const file = this.#file(sessionId, key);
    try {
      await stat(file);
      return;
    } catch (error) {
      if (!isNotFound(error)) throw ContentStoreError.unavailable(this.description, error, sessionId, key);
    }
    try {
      await this.#makeDirectory(sessionId, path.dirname(file));
      await this.#writeAtomic(file, bytes);
    } catch (error) {
      throw ContentStoreError.unavailable(this.description, error, sessionId, key);
    }
  }

  /** Creates `dir` in the session's directory, and the file naming the session when the directory's name is a hash. */
  async #makeDirectory(sessionId: string, dir: string): Promise<void> {
    await mkdir(dir, { recursive: true });
    const sessionDir = this.#sessionDir(sessionId);
    if (path.basename(sessionDir).startsWith('h-'))
      await this.#writeAtomic(path.join(sessionDir, sessionIdFile), sessionId);
  }

  async #writeAtomic(file: string, data: Uint8Array | string): Promise<void> {
    const temp = temporaryName(file);
    try {
      await writeFile(temp, data);
      await rename(temp, file);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw error;
    }
  }

  async get(sessionId: string, key: string): Promise<Uint8Array> {
    const file = this.#file(sessionId, key);
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
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
      await this.#makeDirectory(sessionId, path.dirname(file));
      const temp = temporaryName(file);
      await writeFile(temp, bytes);
      try {
        // A hard link never replaces an existing file: the first writer's record stays.
        await link(temp, file);
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
        throw error;
      } finally {
        await unlink(temp).catch(() => undefined);
      }
    } catch (error) {
      throw ContentStoreError.unavailable(this.description, error, sessionId, `record ${JSON.stringify(name)}`);
    }
  }

  async getRecord(sessionId: string, name: string): Promise<Uint8Array | undefined> {
    try {
      const bytes = await readFile(this.#recordFile(sessionId, name));
      return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw ContentStoreError.unavailable(this.description, error, sessionId, `record ${JSON.stringify(name)}`);
    }
  }

  async deleteSession(sessionId: string): Promise<number> {
    const dir = this.#sessionDir(sessionId);
    try {
      const count = (await this.#contentFiles(dir)).length;
      await rm(dir, { recursive: true, force: true });
      return count;
    } catch (error) {
      throw ContentStoreError.unavailable(this.description, error, sessionId);
    }
  }

  async deleteSessionsOlderThan(before: Date): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.#sessions);
    } catch (error) {
      if (isNotFound(error)) return [];
      throw ContentStoreError.unavailable(this.description, error);
    }
    const removed: string[] = [];
    for (const name of names) {
      const dir = path.join(this.#sessions, name);
      try {
        const sessionId = await this.#sessionIdOf(name, dir);
        if (sessionId === undefined) continue;
        const newest = await this.#newestMtime(dir);
        if (newest >= before.getTime()) continue;
        await rm(dir, { recursive: true, force: true });
        removed.push(sessionId);
      } catch (error) {
        if (isNotFound(error)) continue;
        throw ContentStoreError.unavailable(this.description, error);
      }
    }
    return removed;
  }

  async #sessionIdOf(name: string, dir: string): Promise<string | undefined> {
    if (name.startsWith('x-')) return Buffer.from(name.slice(2), 'hex').toString('utf8');
    if (name.startsWith('h-')) return (await readFile(path.join(dir, sessionIdFile), 'utf8')).toString();
    return undefined;
  }

  /** Newest modification time (ms since the epoch) of any file under `dir`, or the directory's own. */
  async #newestMtime(dir: string): Promise<number> {
    let newest = (await stat(dir)).mtimeMs;
    for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
      const full = path.join(entry.parentPath, entry.name);
      const info = await stat(full).catch(() => undefined);
      if (info !== undefined && info.mtimeMs > newest) newest = info.mtimeMs;
    }
    return newest;
  }

  /** Content and record files under `dir` (both are named by a SHA-256). */
  async #contentFiles(dir: string): Promise<string[]> {
    try {
      const entries = await readdir(dir, { withFileTypes: true, recursive: true });
      return entries.filter((entry) => entry.isFile() && keyPattern.test(entry.name)).map((entry) => entry.name);
    } catch (error) {
      if (isNotFound(error)) return [];
      throw error;
    }
  }

  async close(): Promise<void> {}
}
