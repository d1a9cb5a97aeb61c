import { mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel, textResponse, toolCallResponse } from '../../../src/models';
import { DirectoryContentStore, sessionDirectoryName } from '../../../src/store/directory-content-store';
import { contentRefOf } from '../../../src/store/hash-content';
import { defineTool } from '../../../src/tools';
import { harnessConnectionArgs, runCli } from '../../e2e/support/run-cli';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { pollUntil } from '../../helpers/poll-until';
import { untilRunsEnded } from '../../helpers/until-runs-ended';
import { withSessionWorker } from '../../helpers/session-worker';

const noRules = compileRules({ toolrail: 1, rules: [] });
const twoHoursAgo = (): Date => new Date(Date.now() - 2 * 3_600_000);

describe('toolrail store prune asks Temporal which sessions are open', () => {
  let connections: HarnessConnections;
  let root: string;
  beforeAll(async () => {
    connections = await connectToHarness();
    root = mkdtempSync(path.join(os.tmpdir(), 'toolrail-prune-'));
  });
  afterAll(async () => {
    rmSync(root, { recursive: true, force: true });
    await connections?.close();
  });

  /** Makes every file of a session look written at `when`, as a session idle for long looks. */
  function age(sessionId: string, when: Date): void {
    const dir = path.join(root, 'sessions', sessionDirectoryName(sessionId));
    for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
      utimesSync(path.join(entry.parentPath, entry.name), when, when);
    utimesSync(dir, when, when);
  }

  const prune = (...args: string[]) => runCli(['store', 'prune', '--store', root, ...args, ...harnessConnectionArgs()]);

  it('never deletes an open session (idle or in a tool call), ages closed ones from their close, and lists what a dry run would delete', async () => {
    const store = new DirectoryContentStore(root);
    const model = createScriptedModel([textResponse('One.'), textResponse('Two.'), textResponse('Three.')]);
    let releaseExport = (): void => undefined;
    let exportStartedNow = (): void => undefined;
    const exportStarted = new Promise<void>((resolve) => (exportStartedNow = resolve));
    const slowExport = defineTool({
      name: 'export_orders',
      description: 'Exports every order (takes a while).',
      inputSchema: z.object({}),
      requiresPermission: false,
      execute: async () => {
        exportStartedNow();
        await new Promise<void>((resolve) => (releaseExport = resolve));
        return 'exported 1,204 orders';
      },
    });
    const exporter = createScriptedModel([
      toolCallResponse('export_orders', {}, { id: 'export-1' }),
      textResponse('Done.'),
    ]);
    await withSessionWorker(
      { connections, tools: [slowExport], scriptedModels: { chat: model, exporter }, contentStore: store },
      async ({ client }) => {
        // A session in the middle of a long tool call.
        const inTool = await client.startSession({
          sessionId: uniqueName('prune-in-tool'),
          rules: noRules,
          model: { provider: 'scripted', model: 'exporter' },
          firstMessage: 'Export the orders',
          interactive: false,
        });
        await exportStarted;
        const open = await client.startSession({
          sessionId: uniqueName('prune-open'),
          rules: noRules,
          model: { provider: 'scripted', model: 'chat' },
          firstMessage: 'Keep me',
        });
        const closed = await client.startSession({
          sessionId: uniqueName('prune-closed'),
          rules: noRules,
          model: { provider: 'scripted', model: 'chat' },
          firstMessage: 'Close me',
          interactive: false,
        });
        expect(await closed.result()).toMatchObject({ status: 'completed' });
        await pollUntil(
          () => open.status(),
          (status) => status.lastRunEnd === 'answered',
        );
        // A session Temporal no longer knows (its history is gone), written long ago.
        const forgotten = uniqueName('prune-forgotten');
        const { ref, bytes } = contentRefOf('an old conversation');
        await store.put(forgotten, ref.key, bytes);
        // Every file looks two hours old: by its newest write, each session would be pruned.
        for (const id of [open.sessionId, closed.sessionId, inTool.sessionId, forgotten]) age(id, twoHoursAgo());

        const dryRun = await prune('--older-than', '1h', '--dry-run');
        expect(dryRun.stderr).toBe('');
        expect(dryRun.code).toBe(0);
        expect(dryRun.stdout).toContain(`would delete 1 session(s), ${bytes.byteLength} bytes`);
        expect(dryRun.stdout).toMatch(
          new RegExp(`${forgotten}\\s+1 item\\(s\\)\\s+${bytes.byteLength} bytes\\s+last written`),
        );
        expect(dryRun.stdout).not.toContain(closed.sessionId); // it closed moments ago
        expect(dryRun.stdout).toContain('kept 2 session(s) still open');
        expect(dryRun.stdout).toContain(open.sessionId);
        expect(dryRun.stdout).toContain(inTool.sessionId);
        expect(await store.get(forgotten, ref.key)).toEqual(bytes);

        const real = await prune('--older-than', '1h');
        expect(real.code).toBe(0);
        expect(real.stdout).toContain('deleted 1 session(s)');
        await expect(store.get(forgotten, ref.key)).rejects.toMatchObject({ code: 'CONTENT_MISSING' });

        const refused = await prune('--session', open.sessionId);
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain(`refused: session ${open.sessionId} is still open`);
        expect(refused.stdout).toBe('');

        const refusedInTool = await prune('--session', inTool.sessionId);
        expect(refusedInTool.code).toBe(1);
        expect(refusedInTool.stderr).toContain(`refused: session ${inTool.sessionId} is still open`);
        // The call it was in the middle of ends, and the session with it, from its whole conversation.
        releaseExport();
        expect(await inTool.result()).toMatchObject({ status: 'completed', lastRunEnd: 'answered' });
        expect(exporter.requests[1]?.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);

        const removed = await prune('--session', closed.sessionId);
        expect(removed.code).toBe(0);
        expect(removed.stdout).toContain(closed.sessionId);
        expect((await store.listSessions()).map((session) => session.sessionId)).not.toContain(closed.sessionId);

        const nothing = await prune('--session', uniqueName('never-stored'));
        expect(nothing.code).toBe(1);
        expect(nothing.stderr).toContain('nothing is stored for session');

        // The open session lost nothing: it answers the next message from its whole conversation.
        await open.send('Still there?');
        await untilRunsEnded(open, 2);
        expect(model.requests.at(-1)?.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
        await open.end();
        await open.result();
      },
    );
  });
});
