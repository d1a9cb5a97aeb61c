// A plain-Node ESM consumer of the installed package: defines a tool, starts the dev server, runs a
// scripted session to its end while following its live feed, and prints the session's rule state
// and the feed's event types as one JSON line.
import { NativeConnection } from '@temporalio/worker';
import { Client, Connection } from '@temporalio/client';
import { z } from 'zod';
import { createWorker, defineTool, formatDiagnostic, loadRuleSet, ToolrailClient } from 'toolrail';
import { createScriptedModel, startDevServer, textResponse, toolCallResponse } from 'toolrail/testing';

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
  });
  const toolrail = new ToolrailClient({ client: new Client({ connection: clientConnection }), taskQueue: 'consumer' });
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
    return { status, ruleState: await session.ruleState(), feed };
  });
  console.log(JSON.stringify(result));
} finally {
  await clientConnection.close();
  await workerConnection.close();
  await server.stop();
}
