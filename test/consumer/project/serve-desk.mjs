// The worker side of the client-only consumer: a dev server and a worker with a read-only tool and
// a refund that needs a human's approval. Prints the server's address as one JSON line, then serves
// until its standard input closes.
import { NativeConnection } from '@temporalio/worker';
import { z } from 'zod';
import { createWorker, defineTool } from 'toolrail';
import { createScriptedModel, startDevServer, textResponse, toolCallResponse } from 'toolrail/testing';

const lookUpOrder = defineTool({
  name: 'look_up_order',
  description: 'Looks up an order by id.',
  inputSchema: z.object({ order_id: z.string() }),
  concurrency: 'READ_ONLY',
  execute: async ({ order_id }) => ({ order_id, status: 'damaged' }),
});
const refundOrder = defineTool({
  name: 'refund_order',
  description: 'Refunds an order. A human approves it first.',
  inputSchema: z.object({ order_id: z.string() }),
  concurrency: 'WRITE_EXCLUSIVE',
  requiresPermission: true,
  execute: async ({ order_id }) => ({ order_id, refunded: true }),
});

const server = await startDevServer({ ui: false });
const connection = await NativeConnection.connect({ address: server.address });
const worker = await createWorker({
  connection,
  taskQueue: 'client-only',
  tools: [lookUpOrder, refundOrder],
  scriptedModels: {
    desk: createScriptedModel([
      toolCallResponse('look_up_order', { order_id: 'ORD-1' }),
      toolCallResponse('refund_order', { order_id: 'ORD-1' }),
      textResponse('ORD-1 is refunded.'),
    ]),
  },
});
const running = worker.run();
console.log(JSON.stringify({ address: server.address }));
process.stdin.resume();
await new Promise((resolve) => process.stdin.once('close', resolve));
worker.shutdown();
await running;
await connection.close();
await server.stop();
