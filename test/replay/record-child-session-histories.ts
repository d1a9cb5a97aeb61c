/**
 * Records the histories `replay-child-sessions.test.ts` replays: the shop's order workflow running
 * an agent session as a child (approvals decided by the order), and an order cancelled while its
 * session runs a tool (after the order interrupted it once), each as the parent's history and the
 * child's. Run on a fresh dev server with the shop's worker as the shop runs it (its workflows,
 * codec and interceptors, toolrail's plugin) and its payments worker, written to
 * `test/replay/histories/child-sessions/<name>.json`.
 *
 *   npx tsx test/replay/record-child-session-histories.ts
 *
 * Regenerate only to add a scenario, or for a change meant to break replay (and say so).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { startDevServer } from '../../src/devserver/start-dev-server';
import type { LanguageModelV4 } from '../../src/models';
import { createScriptedModel, textResponse, toolCallResponse } from '../../src/models';
import { DirectoryContentStore } from '../../src/store/directory-content-store';
import { toolrailPlugin } from '../../src/worker';
import { defineProbeTool } from '../helpers/define-probe-tool';
import { fetchRunChain } from '../helpers/run-chain';
import type { JsonHistory } from '../helpers/run-chain';
import { machineNeutralHistory } from './machine-neutral-history';
import { ToolProbe } from '../helpers/tool-probe';
import { compileRules } from '../helpers/compile-rules';
import { createShopAgentTools, shopAgentRules, shopAgentScript } from '../fixtures/shop/shop-agent';
import { recordActivities } from '../fixtures/shop/shop-activity-interceptor';
import { createPaymentsActivities, shopActivities } from '../fixtures/shop/shop-activities';
import { ShopCodec } from '../fixtures/shop/shop-codec';
import type { AgentOrderInput, orderWithAgent } from '../fixtures/shop/shop-workflows';
import { interruptAgentSignal } from '../fixtures/shop/shop-workflows';

const historiesDirectory = path.resolve(__dirname, 'histories/child-sessions');
/** The shop's workflows and workflow interceptors, as its worker bundles them. */
const shopWorkflowsPath = path.resolve(__dirname, '../fixtures/shop/shop-workflows.ts');
const shopWorkflowInterceptors = path.resolve(__dirname, '../fixtures/shop/shop-workflow-interceptors.ts');

async function record(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const server = await startDevServer({ ui: false, onProgress: (line) => process.stderr.write(`${line}\n`) });
  const directory = mkdtempSync(path.join(os.tmpdir(), 'toolrail-replay-shop-'));
  const connection = await Connection.connect({ address: server.address });
  const nativeConnection = await NativeConnection.connect({ address: server.address });
  const probe = new ToolProbe();
  const scriptedModels = new Map<string, LanguageModelV4>();
  try {
    const plugin = toolrailPlugin({
      tools: [
        ...createShopAgentTools('replay-payments'),
        defineProbeTool({ name: 'check_warehouse', probe, interruptBehavior: 'cancel' }),
      ],
      scriptedModels,
      contentStore: new DirectoryContentStore(path.join(directory, 'content')),
    });
    const codec = { payloadCodecs: [new ShopCodec()] };
    const payments = await Worker.create({
      connection: nativeConnection,
      namespace: server.namespace,
      taskQueue: 'replay-payments',
      activities: createPaymentsActivities(path.join(directory, 'ledger.jsonl')),
      dataConverter: codec,
    });
    const shop = await Worker.create({
      connection: nativeConnection,
      namespace: server.namespace,
      taskQueue: 'replay-shop',
      workflowsPath: shopWorkflowsPath,
      activities: shopActivities,
      dataConverter: codec,
      interceptors: { workflowModules: [shopWorkflowInterceptors], activity: [recordActivities([])] },
      plugins: [plugin],
    });
    const client = new Client({ connection, namespace: server.namespace, dataConverter: codec, plugins: [plugin] });
    const order = (orderId: string, overrides: Partial<AgentOrderInput>): AgentOrderInput => ({
      orderId,
      amountCents: 1_500,
      paymentsQueue: 'replay-payments',
      sessionId: `${orderId}-agent`,
      rules: shopAgentRules,
      model: { provider: 'scripted', model: orderId },
      request: 'Please charge my order.',
      approveUpToCents: 1_500,
      ...overrides,
    });
    mkdirSync(historiesDirectory, { recursive: true });
    await payments.runUntil(
      shop.runUntil(async () => {
        scriptedModels.set('ORD-1', shopAgentScript('ORD-1'));
        const approved = await client.workflow.start<typeof orderWithAgent>('orderWithAgent', {
          taskQueue: 'replay-shop',
          workflowId: 'ORD-1',
          args: [order('ORD-1', {})],
        });
        await approved.result();
        await writeChain(client, 'ORD-1', 'order-with-agent');
        await writeChain(client, 'ORD-1-agent', 'order-with-agent-session');

        scriptedModels.set(
          'ORD-2',
          createScriptedModel([
            toolCallResponse('check_warehouse', { hold: true }, { id: 'first-check' }),
            toolCallResponse('check_warehouse', { hold: true }, { id: 'second-check' }),
            textResponse('unreached'),
          ]),
        );
        const cancelled = await client.workflow.start<typeof orderWithAgent>('orderWithAgent', {
          taskQueue: 'replay-shop',
          workflowId: 'ORD-2',
          args: [order('ORD-2', { rules: compileRules({ toolrail: 1, rules: [] }), request: 'Is it in stock?' })],
        });
        await probe.started('first-check');
        await cancelled.signal(interruptAgentSignal, 'Check again, please.');
        await probe.started('second-check');
        await cancelled.cancel();
        await cancelled.result().catch(() => undefined);
        await client.workflow.getHandle('ORD-2-agent').result();
        await writeChain(client, 'ORD-2', 'cancelled-order');
        await writeChain(client, 'ORD-2-agent', 'cancelled-order-session');
      }),
    );
  } finally {
    await nativeConnection.close();
    await connection.close();
    await server.stop();
    rmSync(directory, { recursive: true, force: true });
  }
}

async function writeChain(client: Client, workflowId: string, name: string): Promise<void> {
  const runs = await fetchRunChain(client, workflowId);
  if (runs.length !== 1) throw new Error(`${workflowId}: expected one run, found ${runs.length}`);
  writeHistory(`${name}.json`, (runs[0] as { history: JsonHistory }).history);
}

function writeHistory(file: string, history: JsonHistory): void {
  writeFileSync(path.join(historiesDirectory, file), `${JSON.stringify(machineNeutralHistory(history), null, 2)}\n`);
  process.stdout.write(`wrote test/replay/histories/child-sessions/${file} (${history.events.length} events)\n`);
}

record().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
