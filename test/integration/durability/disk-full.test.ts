import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModel, textResponse } from '../../../src/models';
import { DirectoryContentStore } from '../../../src/store/directory-content-store';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { pollUntil } from '../../helpers/poll-until';
import { untilRunsEnded } from '../../helpers/until-runs-ended';
import { withSessionWorker } from '../../helpers/session-worker';

const noRules = compileRules({ toolrail: 1, rules: [] });
/** Longer than the ten attempts (about 55 s) after which the workflow's own write of a message failed it. */
const fullForMs = 65_000;

describe("the directory store's disk full under an idle session", () => {
  let connections: HarnessConnections;
  let mountPoint: string;
  let mounted = false;
  beforeAll(async () => {
    connections = await connectToHarness();
    mountPoint = mkdtempSync(path.join(os.tmpdir(), 'toolrail-full-disk-'));
    // A small file system of its own that the test can fill (the test run is root, as in CI).
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mountPoint]);
    mounted = true;
  });
  afterAll(async () => {
    if (mounted) execFileSync('umount', ['-l', mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
    await connections?.close();
  });

  it('keeps a message that arrives while the disk is full for longer than the old retry window, says ENOSPC, and answers it once space is freed', async () => {
    const store = new DirectoryContentStore(path.join(mountPoint, 'content'));
    const model = createScriptedModel([textResponse('Hello.'), textResponse('Got it, despite the full disk.')]);
    await withSessionWorker(
      { connections, tools: [], scriptedModels: { chat: model }, contentStore: store },
      async ({ client }) => {
        const session = await client.startSession({
          sessionId: uniqueName('disk-full'),
          rules: noRules,
          model: { provider: 'scripted', model: 'chat' },
          firstMessage: 'Hi',
          limits: { storeRetryIntervalMs: 500 },
        });
        await pollUntil(
          () => session.status(),
          (status) => status.lastRunEnd === 'answered',
        );

        const filler = path.join(mountPoint, 'filler');
        const { bavail, bsize } = statfsSync(mountPoint);
        writeFileSync(filler, Buffer.alloc(bavail * bsize));
        expect(statfsSync(mountPoint).bavail).toBe(0);
        await session.send('A message for a full disk');
        const sentAt = Date.now();

        const waiting = await pollUntil(
          () => session.status(),
          (status) => status.status === 'waiting_for_store',
        );
        expect(waiting.storeProblem).toMatchObject({ code: 'STORE_UNAVAILABLE', store: store.description });
        expect(waiting.storeProblem?.message).toContain('ENOSPC');
        // Past the old retry window: every check along the way finds the session waiting, not failed.
        await pollUntil(
          async () => {
            expect((await session.status()).status).toBe('waiting_for_store');
            return Date.now() - sentAt;
          },
          (fullFor) => fullFor > fullForMs,
          { timeoutMs: fullForMs + 30_000, intervalMs: 1_000 },
        );

        rmSync(filler);
        await untilRunsEnded(session, 2);
        const answered = await session.status();
        expect(answered).toMatchObject({ status: 'idle', lastRunEnd: 'answered' });
        expect(answered.storeProblem).toBeUndefined();
        const transcript = await session.transcript({ full: true });
        expect(transcript.filter((entry) => entry.kind === 'user').map((entry) => entry.text)).toEqual([
          'Hi',
          'A message for a full disk',
        ]);
        expect(model.requests[1]?.messages.at(-1)).toMatchObject({ role: 'user', text: 'A message for a full disk' });
        await session.end();
        expect(await session.result()).toMatchObject({ status: 'completed' });
      },
    );
  }, 180_000);
});
