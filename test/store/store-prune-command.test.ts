import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, expect, inject, it } from 'vitest';
import '../harness/provided-context';
import { ContentStoreError } from '../../src/store/content-store-error';
import { DirectoryContentStore } from '../../src/store/directory-content-store';
import { contentRefOf } from '../../src/store/hash-content';
import { PostgresContentStore, contentTable } from '../../src/store/postgres-content-store';
import { runCli } from '../e2e/support/run-cli';

const root = mkdtempSync(path.join(os.tmpdir(), 'toolrail-prune-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('prunes one session from a directory store and keeps the others', async () => {
  const store = new DirectoryContentStore(root);
  const { ref, bytes } = contentRefOf('prune me');
  await store.put('doomed', ref.key, bytes);
  await store.put('kept', ref.key, bytes);
  const result = await runCli(['store', 'prune', '--session', 'doomed', '--store', root]);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  expect(result.stdout).toContain('deleted 1 item(s) of session doomed');
  await expect(store.get('doomed', ref.key)).rejects.toBeInstanceOf(ContentStoreError);
  expect(await store.get('kept', ref.key)).toEqual(bytes);
});

it('prunes the sessions older than an age from a PostgreSQL store', async () => {
  const url = inject('postgresUrl');
  const store = new PostgresContentStore(url);
  const admin = new pg.Pool({ connectionString: url, max: 1 });
  try {
    const { ref, bytes } = contentRefOf('old news');
    await store.put('cli-old', ref.key, bytes);
    await store.put('cli-new', ref.key, bytes);
    await admin.query(`UPDATE ${contentTable} SET stored_at = now() - interval '40 days' WHERE session_id = 'cli-old'`);
    const result = await runCli(['store', 'prune', '--older-than', '30d', '--store', url]);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')).toContain('cli-old');
    expect(result.stdout.split('\n')).not.toContain('cli-new');
    expect(await store.get('cli-new', ref.key)).toEqual(bytes);
  } finally {
    await admin.end();
    await store.close();
  }
});

it('rejects an unreadable age with one line and exit code 2', async () => {
  const result = await runCli(['store', 'prune', '--older-than', 'a while', '--store', root]);
  expect(result.code).toBe(2);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  expect(result.stderr).toContain('--older-than');
});

it('rejects an unsupported store with one line and exit code 2', async () => {
  const result = await runCli(['store', 'prune', '--session', 's', '--store', 's3://bucket/x']);
  expect(result.code).toBe(2);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  expect(result.stderr).toContain('is not supported');
});
