import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ContentStore } from './content-store';
import { ContentStoreError } from './content-store-error';
import { sha256Hex } from './hash-content';

/**
 * The embedded content store: one directory, no set-up, shared by every worker process on one
 * machine. Layout: `<root>/sessions/<session id, hex>/<key[0..2]>/<key>`. Writes go to a temporary
 * file first and are renamed into place, so readers never see half a file and concurrent writers of
 * one key are harmless.
 */
export function createDirectoryContentStore(root: string): ContentStore {
  const absoluteRoot = path.resolve(root);
  const sessionsDirectory = path.join(absoluteRoot, 'sessions');
  const sessionDirectory = (sessionId: string): string =>
    path.join(sessionsDirectory, Buffer.from(sessionId, 'utf8').toString('hex'));
  const fileOf = (sessionId: string, key: string): string => {
    if (!/^[0-9a-f]{64}$/.test(key)) {
      throw new ContentStoreError({
        code: 'CONTENT_MISSING',
        sessionId,
        key,
        message: `session ${sessionId}: ${JSON.stringify(key)} is not a content key (64 hex digits)`,
      });
    }
    return path.join(sessionDirectory(sessionId), key.slice(0, 2), key);
  };
  const description = `directory:${absoluteRoot}`;
  let sequence = 0;

  return {
    description,
    async put(sessionId, key, bytes) {
      const file = fileOf(sessionId, key);
      try {
        await stat(file);
        return; // content-addressed: the same key holds the same bytes
      } catch {
        // not there yet
      }
      await mkdir(path.dirname(file), { recursive: true });
      const temporary = `${file}.${process.pid}.${(sequence += 1)}.tmp`;
      await writeFile(temporary, bytes);
      await rename(temporary, file);
    },
    async get(sessionId, key) {
      const file = fileOf(sessionId, key);
      let bytes: Buffer;
      try {
        bytes = await readFile(file);
      } catch (error) {
        throw new ContentStoreError({
          code: 'CONTENT_MISSING',
          sessionId,
          key,
          cause: error,
          message: `session ${sessionId}: content ${key} is missing from ${description} (was the session's content removed, or does this worker use another store than the one that wrote it?)`,
        });
      }
      if (sha256Hex(bytes) !== key) {
        throw new ContentStoreError({
          code: 'CONTENT_CORRUPT',
          sessionId,
          key,
          message: `session ${sessionId}: content ${key} in ${description} does not match its hash (the file ${file} was changed)`,
        });
      }
      return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
    async deleteSession(sessionId) {
      const directory = sessionDirectory(sessionId);
      const count = await countFiles(directory);
      await rm(directory, { recursive: true, force: true });
      return count;
    },
    async deleteSessionsOlderThan(before) {
      const removed: string[] = [];
      let entries: string[];
      try {
        entries = await readdir(sessionsDirectory);
      } catch {
        return removed;
      }
      for (const entry of entries) {
        const directory = path.join(sessionsDirectory, entry);
        if ((await newestWrite(directory)) >= before.getTime()) continue;
        await rm(directory, { recursive: true, force: true });
        removed.push(Buffer.from(entry, 'hex').toString('utf8'));
      }
      return removed;
    },
    close: () => Promise.resolve(),
  };
}

/** The files under a session's directory (two levels: `<key[0..2]>/<key>`), with their paths. */
async function contentFiles(directory: string): Promise<string[]> {
  const files: string[] = [];
  let prefixes: string[];
  try {
    prefixes = await readdir(directory);
  } catch {
    return files;
  }
  for (const prefix of prefixes) {
    const names = await readdir(path.join(directory, prefix)).catch(() => [] as string[]);
    for (const name of names) if (!name.endsWith('.tmp')) files.push(path.join(directory, prefix, name));
  }
  return files;
}

async function countFiles(directory: string): Promise<number> {
  return (await contentFiles(directory)).length;
}

/** Epoch ms of the newest file under a session's directory (the directory's own mtime when empty). */
async function newestWrite(directory: string): Promise<number> {
  let newest = (await stat(directory)).mtimeMs;
  for (const file of await contentFiles(directory)) newest = Math.max(newest, (await stat(file)).mtimeMs);
  return newest;
}
