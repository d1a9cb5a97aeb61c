// A plain-Node ESM consumer of the installed package: defines a tool, starts the dev server, runs a
// scripted session to its end with an encrypting payload codec on worker and client while following
// its live feed, asks an idle session for its workflow stack trace, reads the first session back with
// `toolrail transcript --codec-module` (and without), and prints what it saw as one JSON line.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { NativeConnection } from '@temporalio/worker';
import { Client, Connection } from '@temporalio/client';
import { z } from 'zod';
import { createWorker, defineTool, formatDiagnostic, loadRuleSet, ToolrailClient } from 'toolrail';
import { createScriptedModel, startDevServer, textResponse, toolCallResponse } from 'toolrail/testing';
import { payloadCodecs } from './codec-module.mjs';

/** Runs `npx toolrail ARGS` and resolves with its exit code and output. */
function toolrailCli(args) {
  return new Promise((resolve) =>
    execFile('npx', ['--no-install', 'toolrail', ...args], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? error.code : 0, stdout, stderr }),
    ),
  );
}

const lookUpOrder = defineTool({
  name: 'look_up_order',
  description: 'Looks up an order by id.',
  inputSchema: z.object({ order_id: z.string() }),
  concurrency: 'READ_ONLY',
  execute: async ({ order_id }) => ({ order_id, status: 'shipped' }),
});

const loaded = await loadRuleSet({ paths: ['rules.yaml'] });
if (!loaded.ok) throw new Error(loaded.errors.map(formatDiagnostic).join('\n'));

const server = await startDevServer({ ui: false });
const workerConnection = await NativeConnection.connect({ address: server.address });
const clientConnection = await Connection.connect({ address: server.address });
try {
  const model = createScriptedModel([
    toolCallResponse('look_up_order', { order_id: 'ORD-1' }),
    textResponse('Your order has shipped.'),
  ]);
  const worker = await createWorker({
    connection: workerConnection,
    taskQueue: 'consumer',
    tools: [lookUpOrder],
    scriptedModels: { chat: model },
    workerOptions: { dataConverter: { payloadCodecs } },
  });
  const client = new Client({ connection: clientConnection, dataConverter: { payloadCodecs } });
  const toolrail = new ToolrailClient({ client, taskQueue: 'consumer' });
  // The CLI of the installed package reads the session (its queries need the worker), with the codec module and without it.
  const connection = ['--address', server.address, '--task-queue', 'consumer'];
  const result = await worker.runUntil(async () => {
    const session = await toolrail.startSession({
      rules: loaded.rules,
      model: { provider: 'scripted', model: 'chat' },
      interactive: false,
      firstMessage: 'Where is ORD-1?',
    });
    const feed = [];
    for await (const event of session.events()) feed.push(event.type);
    const status = await session.result();
    const transcript = ['transcript', session.sessionId];
    // An idle session's workflow stack (the Web UI's Stack Trace tab): off by default, so no frame of toolrail's workflows.
    const idle = await toolrail.startSession({ rules: loaded.rules, model: { provider: 'scripted', model: 'chat' } });
    while ((await idle.status()).status !== 'idle') await new Promise((resolve) => setTimeout(resolve, 100));
    const idleStack = await idle.workflow.query('__stack_trace');
    await idle.workflow.terminate('consumer test done');
    return {
      status,
      workflowFramesInStack: /workflows\/[\w-]+\.(js|ts)/.test(idleStack),
      ruleState: await session.ruleState(),
      feed,
      read: await toolrailCli([...transcript, '--json', '--codec-module', 'codec-module.mjs', ...connection]),
      refused: await toolrailCli([...transcript, ...connection]),
    };
  });
  const { read, refused } = result;
  // The worker's default store: .toolrail/content under the working directory.
  const store = path.join('.toolrail', 'content');
  const stored = readdirSync(store, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(path.join(entry.parentPath, entry.name)));
  console.log(
    JSON.stringify({
      status: result.status,
      ruleState: result.ruleState,
      workflowFramesInStack: result.workflowFramesInStack,
      feed: result.feed,
      cli: {
        code: read.code,
        userText: read.code === 0 ? JSON.parse(read.stdout).find((entry) => entry.kind === 'user')?.text : read.stderr,
      },
      refused: { code: refused.code, stderr: refused.stderr },
      storedItems: stored.length,
      plaintextInStore: stored.some((bytes) => bytes.includes('ORD-1')),
    }),
  );
} finally {
  await clientConnection.close();
  await workerConnection.close();
  await server.stop();
}
