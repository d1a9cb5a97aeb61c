import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statfsSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DirectoryContentStore, sessionDirectoryName } from '../../src/store/directory-content-store';
import { recordDigest, sha256Hex } from '../../src/store/hash-content';
import { contentStoreContract } from './content-store-contract';

const root = mkdtempSync(path.join(os.tmpdir(), 'toolrail-content-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const sessionDir = (sessionId: string): string => path.join(root, 'sessions', sessionDirectoryName(sessionId));

contentStoreContract('directory', {
  open: () => Promise.resolve(new DirectoryContentStore(root)),
  corrupt: (_store, sessionId, key, bytes) => {
    writeFileSync(path.join(sessionDir(sessionId), key), bytes);
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

describe('the directory store writing content', () => {
  const content = (text: string): { key: string; bytes: Uint8Array } => {
    const bytes = new TextEncoder().encode(text);
    return { key: sha256Hex(bytes), bytes };
  };

  it('makes a session directory again when it is gone, and names a session whose directory is a hash first', async () => {
    const store = new DirectoryContentStore(mkdtempSync(path.join(root, 'again-')));
    // Too long to spell out in a file name: its directory is named by a hash, and a file in it names the session.
    const sessionId = `session-${'x'.repeat(120)}`;
    const first = content('first');
    await store.put(sessionId, first.key, first.bytes);
    const dir = path.join(store.root, 'sessions', sessionDirectoryName(sessionId));
    expect(path.basename(dir).startsWith('h-')).toBe(true);
    rmSync(dir, { recursive: true });
    const second = content('second');
    await store.put(sessionId, second.key, second.bytes);
    expect(new TextDecoder().decode(await store.get(sessionId, second.key))).toBe('second');
    expect((await store.listSessions()).map((session) => session.sessionId)).toEqual([sessionId]);
  });

  it('writes small contents at once and large ones through the thread pool alike: each reads back whole, and no temporary file stays', async () => {
    const store = new DirectoryContentStore(mkdtempSync(path.join(root, 'sizes-')));
    const written = [
      content('small'),
      content('s'.repeat(16 * 1024)),
      content('l'.repeat(16 * 1024 + 1)),
      content('x'.repeat(3_000_000)),
    ];
    for (const { key, bytes } of written) await store.put('sizes', key, bytes);
    for (const { key, bytes } of written) expect(await store.get('sizes', key)).toEqual(bytes);
    const files = readdirSync(path.join(store.root, 'sessions', sessionDirectoryName('sizes')));
    expect(files.sort()).toEqual(written.map(({ key }) => key).sort());
  });

  it('reads, lists and deletes content that earlier versions wrote in a directory per two characters of its key', async () => {
    const store = new DirectoryContentStore(mkdtempSync(path.join(root, 'earlier-')));
    const sessionId = 'written-by-an-earlier-version';
    const earlier = content('written in the earlier layout');
    const dir = path.join(store.root, 'sessions', sessionDirectoryName(sessionId));
    mkdirSync(path.join(dir, earlier.key.slice(0, 2)), { recursive: true });
    writeFileSync(path.join(dir, earlier.key.slice(0, 2), earlier.key), earlier.bytes);
    const later = content('written by this version');
    await store.put(sessionId, later.key, later.bytes);

    expect(readdirSync(dir).sort()).toEqual([earlier.key.slice(0, 2), later.key].sort());
    expect(new TextDecoder().decode(await store.get(sessionId, earlier.key))).toBe('written in the earlier layout');
    expect(new TextDecoder().decode(await store.get(sessionId, later.key))).toBe('written by this version');
    expect(await store.listSessions()).toMatchObject([{ sessionId, items: 2 }]);
    expect(await store.deleteSession(sessionId)).toBe(2);
    await expect(store.get(sessionId, earlier.key)).rejects.toHaveProperty('code', 'CONTENT_MISSING');
  });

  it('takes content it already holds when its disk is full, and refuses new content saying ENOSPC', async () => {
    // A small file system of its own that the test can fill (the test run is root, as in CI).
    const mountPoint = mkdtempSync(path.join(os.tmpdir(), 'toolrail-full-store-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mountPoint]);
    try {
      const store = new DirectoryContentStore(path.join(mountPoint, 'content'));
      const held = content('held before the disk filled up');
      await store.put('full', held.key, held.bytes);
      const { bavail, bsize } = statfsSync(mountPoint);
      writeFileSync(path.join(mountPoint, 'filler'), Buffer.alloc(bavail * bsize));
      expect(statfsSync(mountPoint).bavail).toBe(0);
      await expect(store.put('full', held.key, held.bytes)).resolves.toBeUndefined();
      const fresh = content(`new content ${'y'.repeat(8_192)}`);
      const refused = store.put('full', fresh.key, fresh.bytes);
      await expect(refused).rejects.toThrow(/ENOSPC/);
      await expect(refused).rejects.toHaveProperty('code', 'STORE_UNAVAILABLE');
    } finally {
      execFileSync('umount', ['-l', mountPoint]);
      rmSync(mountPoint, { recursive: true, force: true });
    }
  });
});
