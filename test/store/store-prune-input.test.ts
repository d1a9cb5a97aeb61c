import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runCli } from '../e2e/support/run-cli';

// What `toolrail store prune` refuses before it asks anything (the prunes themselves ask Temporal:
// test/integration/durability/store-prune.test.ts).
const root = mkdtempSync(path.join(os.tmpdir(), 'toolrail-prune-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

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

it('rejects both --session and --older-than with one line and exit code 2', async () => {
  const result = await runCli(['store', 'prune', '--session', 's', '--older-than', '1d', '--store', root]);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain('exactly one of --session ID or --older-than AGE');
});

it('deletes nothing, and says so, when Temporal cannot be asked which sessions are open', async () => {
  const result = await runCli(['store', 'prune', '--older-than', '1d', '--store', root, '--address', '127.0.0.1:1']);
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('nothing was deleted');
  expect(result.stderr).toContain('could not ask Temporal at 127.0.0.1:1');
});
