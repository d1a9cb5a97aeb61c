import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ToolrailClient } from '../src/client/toolrail-client';
import { startDevServer } from '../src/devserver/start-dev-server';
import { createWorker } from '../src/worker/create-worker';
import { emptyRules } from '../bench/dispatch/measure-on-server';
import { createScaleModel, createScaleTool } from '../bench/scale/scale-tool';
import { historyToJsonValue } from '../test/helpers/history-json';

async function main() {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const server = await startDevServer({ ui: false });
  const connection = await Connection.connect({ address: server.address });
  const native = await NativeConnection.connect({ address: server.address });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dump-'));
  try {
    const worker = await createWorker({ connection: native, taskQueue: 'dump', tools: [createScaleTool()], scriptedModels: { 'scale-4': createScaleModel(4) }, contentStore: dir });
    const client = new Client({ connection });
    const toolrail = new ToolrailClient({ client, taskQueue: 'dump' });
    await worker.runUntil(async () => {
      const s = await toolrail.startSession({ sessionId: 'dump-1', rules: emptyRules(), model: { provider: 'scripted', model: 'scale-4' }, firstMessage: 'Read.', interactive: false });
      await s.result();
    });
    const history = await client.workflow.getHandle('dump-1').fetchHistory();
    console.log(JSON.stringify(historyToJsonValue(history), null, 1));
  } finally {
    await native.close(); await connection.close(); await server.stop();
  }
}
main();
