// A plain-Node consumer of the installed package sending payloads over Temporal's 256 KiB External
// Storage threshold. ToolrailClient, whose Temporal Client has External Storage on the workers' store
// (and no content store of its own, so each big payload travels as a claim), sends a big first
// message, a big message as an update and one as a signal, and approves a call with a big reason;
// the session's tool returns a big result. Python temporalio (no External Storage: each payload
// inline) starts a session with a big first message and sends a big signal, a big approval reason
// and a big update (PYTHON: the interpreter with temporalio). Prints one JSON line: what each
// session ended with.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { z } from 'zod';
import {
  createExternalStorage,
  createWorker,
  defineTool,
  formatDiagnostic,
  loadRuleSet,
  openContentStore,
  ToolrailClient,
} from 'toolrail';
import { createScriptedModel, startDevServer, textResponse, toolCallResponse } from 'toolrail/testing';

/** 300 KB of text: over the 256 KiB threshold, under the sessions' 1 MiB message limit. */
const big = (label) => `${label}: ${'x'.repeat(300_000)}`;

/** Resolves when `read()` satisfies `done` (asked every 100 ms, for at most a minute). */
async function waitFor(read, done) {
  for (const deadline = Date.now() + 60_000; ; await new Promise((resolve) => setTimeout(resolve, 100))) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met: ${JSON.stringify(value).slice(0, 500)}`);
  }
}

/** Runs the Python side: start, signal, approval and update, each 300 KB inline; resolves with its last JSON line. */
function runPython(address, inputFile, sessionId) {
  return new Promise((resolve, reject) =>
    execFile(
      process.env.PYTHON,
      ['big_payloads.py', inputFile, sessionId],
      { env: { ...process.env, TEMPORAL_ADDRESS: address, TOOLRAIL_TASK_QUEUE: 'big' }, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) =>
        error
          ? reject(new Error(`${error.message}\n${stderr}`))
          : resolve(JSON.parse(stdout.trim().split('\n').at(-1))),
    ),
  );
}

const bigReport = defineTool({
  name: 'big_report',
  description: 'Writes a long report.',
  inputSchema: z.object({}),
  concurrency: 'READ_ONLY',
  execute: async () => big('report'),
});
const refundOrder = defineTool({
  name: 'refund_order',
  description: 'Refunds an order. A human approves it first.',
  inputSchema: z.object({ order_id: z.string() }),
  concurrency: 'WRITE_EXCLUSIVE',
  requiresPermission: true,
  execute: async ({ order_id }) => ({ order_id, refunded: true }),
});

const loaded = await loadRuleSet({ paths: ['rules.yaml'] });
if (!loaded.ok) throw new Error(loaded.errors.map(formatDiagnostic).join('\n'));

const server = await startDevServer({ ui: false });
const workerConnection = await NativeConnection.connect({ address: server.address });
const clientConnection = await Connection.connect({ address: server.address });
try {
  // A store of its own: run-session.mjs checks that the default one holds no plaintext.
  const store = openContentStore('big-payloads-content');
  const worker = await createWorker({
    connection: workerConnection,
    taskQueue: 'big',
    tools: [bigReport, refundOrder],
    contentStore: store,
    scriptedModels: {
      claims: createScriptedModel([
        toolCallResponse('big_report', {}),
        textResponse('Read the report.'),
        toolCallResponse('refund_order', { order_id: 'ORD-1' }),
        textResponse('ORD-1 is refunded.'),
        textResponse('Got the signal.'),
      ]),
      inline: createScriptedModel([
        textResponse('Read it.'),
        toolCallResponse('refund_order', { order_id: 'ORD-2' }),
        textResponse('ORD-2 is refunded.'),
        textResponse('Got the update.'),
      ]),
    },
  });
  const client = new Client({
    connection: clientConnection,
    dataConverter: { externalStorage: createExternalStorage(store) },
  });
  const toolrail = new ToolrailClient({ client, taskQueue: 'big' });
  const result = await worker.runUntil(async () => {
    const session = await toolrail.startSession({
      rules: loaded.rules,
      model: { provider: 'scripted', model: 'claims' },
      firstMessage: big('first'),
    });
    const runs = (count) =>
      waitFor(
        () => session.status(),
        (status) => status.status === 'idle' && status.counters.runs === count,
      );
    await runs(1);
    await session.send(big('update'));
    const { pendingApprovals } = await waitFor(
      () => session.ruleState(),
      (state) => state.pendingApprovals.length > 0,
    );
    await session.approve(pendingApprovals[0].callId, big('reason'));
    await runs(2);
    await session.workflow.signal('userMessage', { text: big('signal') });
    await runs(3);
    await session.end();
    const status = await session.result();
    const transcript = await session.transcript();

    const inputFile = 'big-input.json';
    writeFileSync(
      inputFile,
      JSON.stringify({
        rules: loaded.rules,
        model: { provider: 'scripted', model: 'inline' },
        firstMessage: big('first'),
      }),
    );
    const python = await runPython(server.address, inputFile, 'python-big');
    return {
      client: {
        status: status.status,
        runs: status.counters.runs,
        users: transcript
          .filter((entry) => entry.kind === 'user')
          .map((entry) => entry.text.slice(0, entry.text.indexOf(':'))),
        tools: transcript.filter((entry) => entry.kind === 'tool').map((entry) => entry.content.split('\n')[0]),
        approvals: transcript.filter((entry) => entry.kind === 'approval').map((entry) => entry.decision),
      },
      python,
    };
  });
  console.log(JSON.stringify(result));
} finally {
  await clientConnection.close();
  await workerConnection.close();
  await server.stop();
}
