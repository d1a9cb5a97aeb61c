import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AesGcmCodec } from '../../examples/payload-codec/aes-gcm-codec';
import { createCodecServer } from '../../examples/payload-codec/codec-server';
import { ToolrailClient } from '../../src/client/toolrail-client';
import { startDevServer } from '../../src/devserver/start-dev-server';
import type { DevServer } from '../../src/devserver/start-dev-server';
import { freePort } from '../../src/devserver/free-port';
import { createExternalStorage } from '../../src/store/content-storage-driver';
import { DirectoryContentStore } from '../../src/store/directory-content-store';
import { createWorker } from '../../src/worker/create-worker';
import { lookUpRecord, privateSessionModel, secretMarkers } from '../fixtures/codec/private-session';
import { uniqueName } from '../harness/connect';
import { compileRules } from '../helpers/compile-rules';
import { pollUntil } from '../helpers/poll-until';
import { runQueryInUi } from './support/temporal-ui';
import { withChromium } from './support/with-chromium';

/**
 * The Web UI reads an encrypted session through the example codec server, as the README sets it
 * up: a dev server started with `--ui-codec-endpoint`, the codec server allowing the UI's origin,
 * and a worker and client encrypting with the same AES-256-GCM codec. The `transcript` query, run
 * from the Queries tab in a real Chromium, shows the session's text.
 */
describe('an encrypted session in the Temporal Web UI', () => {
  const codec = new AesGcmCodec(new Map([['key-1', randomBytes(32)]]), 'key-1');
  let codecServer: Server;
  let server: DevServer;
  let storeRoot: string;

  beforeAll(async () => {
    const uiPort = await freePort();
    codecServer = createCodecServer([codec], { uiOrigins: [`http://127.0.0.1:${uiPort}`] });
    await new Promise<void>((resolve) => codecServer.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(codecServer.address() as AddressInfo).port}`;
    server = await startDevServer({ ui: true, uiPort, uiCodecEndpoint: endpoint });
    storeRoot = mkdtempSync(path.join(os.tmpdir(), 'toolrail-codec-ui-'));
  });
  afterAll(async () => {
    await server?.stop();
    await new Promise((resolve) => codecServer?.close(resolve));
    if (storeRoot) rmSync(storeRoot, { recursive: true, force: true });
  });

  it('shows the decoded transcript on the Queries tab through the codec server', async () => {
    const taskQueue = uniqueName('codec-ui');
    const store = new DirectoryContentStore(storeRoot);
    const nativeConnection = await NativeConnection.connect({ address: server.address });
    const connection = await Connection.connect({ address: server.address });
    try {
      const worker = await createWorker({
        connection: nativeConnection,
        taskQueue,
        tools: [lookUpRecord],
        scriptedModels: { 'private-session': privateSessionModel() },
        contentStore: store,
        workerOptions: { dataConverter: { payloadCodecs: [codec] } },
      });
      const client = new Client({
        connection,
        dataConverter: { payloadCodecs: [codec], externalStorage: createExternalStorage(store) },
      });
      const toolrail = new ToolrailClient({ client, taskQueue, contentStore: store });
      const id = randomBytes(6).toString('hex');
      const markers = secretMarkers(id);
      await worker.runUntil(async () => {
        const session = await toolrail.startSession({
          sessionId: uniqueName('codec-ui-session'),
          rules: compileRules('toolrail: 1\nrules: []\n'),
          model: { provider: 'scripted', model: 'private-session' },
          firstMessage: `${markers.first} please look this up.`,
        });
        await pollUntil(
          () => session.status(),
          (status) => status.lastRunEnd === 'answered',
          { timeoutMs: 60_000, intervalMs: 200 },
        );
        const runId = (await session.workflow.describe()).runId;
        const shown = await withChromium((page) =>
          runQueryInUi(
            page,
            {
              ui: server.uiAddress ?? '',
              namespace: server.namespace,
              workflowId: session.sessionId,
              runId,
            },
            'transcript',
            'codec-server-in-ui/transcript',
          ),
        );
        // The UI runs the query as any client does: its first page holds this short session whole.
        expect(shown).toMatchObject({ entries: await session.transcript(), more: false });
        expect(JSON.stringify(shown)).toContain(markers.answer);
      });
    } finally {
      await connection.close();
      await nativeConnection.close();
      await store.close();
    }
  });
});
