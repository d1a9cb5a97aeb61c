// A plain-Node ESM app that already has a Temporal worker (its workflows, its activity) adds
// agent sessions with one line, toolrail's plugin, and runs its old workflow and a new one that
// asks an agent as a child session. Prints what it saw as one JSON line.
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { formatDiagnostic, loadRuleSet, toolrailPlugin } from 'toolrail';
import { createScriptedModel, startDevServer, textResponse } from 'toolrail/testing';

const loaded = await loadRuleSet({ paths: ['rules.yaml'] });
if (!loaded.ok) throw new Error(loaded.errors.map(formatDiagnostic).join('\n'));

const server = await startDevServer({ ui: false });
const workerConnection = await NativeConnection.connect({ address: server.address });
const clientConnection = await Connection.connect({ address: server.address });
try {
  const agent = toolrailPlugin({
    scriptedModels: { agent: createScriptedModel([textResponse('Hello from the agent.')]) },
  });
  const worker = await Worker.create({
    connection: workerConnection,
    taskQueue: 'app',
    workflowsPath: fileURLToPath(new URL('./app-workflows.mjs', import.meta.url)),
    activities: { greet: async (name) => `Hello, ${name}!` },
    plugins: [agent],
  });
  const client = new Client({ connection: clientConnection, plugins: [agent] });
  const result = await worker.runUntil(async () => ({
    greeting: await client.workflow.execute('greeting', { taskQueue: 'app', workflowId: 'greeting-1', args: ['Ada'] }),
    agent: await client.workflow.execute('askAgent', {
      taskQueue: 'app',
      workflowId: 'ask-1',
      args: [{ rules: loaded.rules, question: 'Hi?' }],
    }),
  }));
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  await workerConnection.close();
  await clientConnection.close();
  await server.stop();
}
