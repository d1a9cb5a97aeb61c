import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { DirectoryContentStore, sessionDirectoryName } from '../../src/store/directory-content-store';
import { recordDigest } from '../../src/store/hash-content';
import { contentStoreContract } from './content-store-contract';

const root = mkdtempSync(path.join(os.tmpdir(), 'toolrail-content-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const sessionDir = (sessionId: string): string => path.join(root, 'sessions', sessionDirectoryName(sessionId));

contentStoreContract('directory', {
  open: () => Promise.resolve(new DirectoryContentStore(root)),
  corrupt: (_store, sessionId, key, bytes) => {
    writeFileSync(path.join(sessionDir(sessionId), key.slice(0, 2), key), bytes);
    return Promise.resolve();
  },
  age: async (_store, sessionId, when) => {
    const dir = sessionDir(sessionId);
    const entries = await readdir(dir, { withFileTypes: true, recursive: true });
    for (const entry of entries) utimesSync(path.join(entry.parentPath, entry.name), when, when);
    utimesSync(dir, when, when);
  },
  corruptRecord: (_store, sessionId, name, bytes) => {
    const file = path.join(sessionDir(sessionId), 'records', recordDigest(name));
    // A record file keeps a header with the hash, then the bytes: keep the header, change the bytes.
    const header = readFileSync(file).subarray(0, 'toolrail-record sha256='.length + 65);
    writeFileSync(file, Buffer.concat([header, bytes]));
    return Promise.resolve();
  },
});
