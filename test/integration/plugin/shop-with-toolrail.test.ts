import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, WorkflowFailedError } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { ToolrailClient } from '../../../src/client/toolrail-client';
import type { LanguageModelV4 } from '../../../src/models';
import { createScriptedModel, textResponse, toolCallResponse } from '../../../src/models';
import { activityTool } from '../../../src/tools';
import { toolrailPlugin } from '../../../src/worker';
import { z } from 'zod';
import { pollUntil } from '../../helpers/poll-until';
import type { ToolrailPlugin } from '../../../src/worker';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { defineProbeTool } from '../../helpers/define-probe-tool';
import { testContentStore } from '../../helpers/session-worker';
import { ToolProbe } from '../../helpers/tool-probe';
import { outline } from '../../helpers/transcript-entries';
import { killWorkerChildren, startWorkerChild } from '../../helpers/worker-child';
import { createShopAgentTools, shopAgentRules, shopAgentScript } from '../../fixtures/shop/shop-agent';
import { recordActivities } from '../../fixtures/shop/shop-activity-interceptor';
import type { SeenActivity } from '../../fixtures/shop/shop-activity-interceptor';
import { shopActivities } from '../../fixtures/shop/shop-activities';
import { ShopCodec, shopEncoding } from '../../fixtures/shop/shop-codec';
import type {
  AgentOrderOutcome,
  orderWithAgent,
  orderWithSessionInput,
  placeOrder,
} from '../../fixtures/shop/shop-workflows';
import { agentOutcomeQuery, interruptAgentSignal } from '../../fixtures/shop/shop-workflows';

const shopWorkflowsPath = path.resolve(__dirname, '../../fixtures/shop/shop-workflows.ts');
const shopWorkflowInterceptors = path.resolve(__dirname, '../../fixtures/shop/shop-workflow-interceptors.ts');

/**
 * The shop: an application that already runs Temporal (its order workflows, its activities on its
 * own worker and on a payments worker in a process of its own, its payload codec, its workflow and
 * activity interceptors). Its worker gains agent sessions by adding toolrail's plugin.
 */
describe('toolrail added to an existing worker with its plugin', () => {
  let connections: HarnessConnections;
  let worker: Worker;
  let running: Promise<void>;
  let client: Client;
  let toolrail: ToolrailClient;
  let plugin: ToolrailPlugin;
  let directory: string;
  let ledger: string;
  const children = new Set<ChildProcess>();
  const taskQueue = uniqueName('shop');
  const paymentsQueue = uniqueName('shop-payments');
  const refundsQueue = uniqueName('shop-refunds');
  const seen: SeenActivity[] = [];
  const probe = new ToolProbe();
  const scriptedModels = new Map<string, LanguageModelV4>();

  beforeAll(async () => {
    connections = await connectToHarness();
    directory = mkdtempSync(path.join(os.tmpdir(), 'toolrail-shop-'));
    ledger = path.join(directory, 'ledger.jsonl');
    writeFileSync(ledger, '');
    await startWorkerChild(
      'test/fixtures/shop/payments-worker.ts',
      { TOOLRAIL_TEST_ADDRESS: inject('temporalAddress'), SHOP_PAYMENTS_QUEUE: paymentsQueue, SHOP_LEDGER: ledger },
      children,
    );
    const contentStore = testContentStore();
    plugin = toolrailPlugin({
      tools: [
        ...createShopAgentTools(paymentsQueue),
        defineProbeTool({ name: 'check_warehouse', probe, interruptBehavior: 'cancel' }),
        activityTool({
          name: 'refund_card',
          description: 'Refunds an order (a worker of the refunds task queue runs it).',
          inputSchema: z.object({ orderId: z.string(), amountCents: z.number().int().positive() }),
          activity: { activityType: 'refundCard', taskQueue: refundsQueue, waitForWorkerMs: 1_000 },
          requiresPermission: false,
        }),
      ],
      scriptedModels,
      contentStore,
    });
    // The shop's worker as it was, plus one line: the plugin.
    worker = await Worker.create({
      connection: connections.nativeConnection,
      namespace: connections.namespace,
      taskQueue,
      workflowsPath: shopWorkflowsPath,
      activities: shopActivities,
      dataConverter: { payloadCodecs: [new ShopCodec()] },
      interceptors: { workflowModules: [shopWorkflowInterceptors], activity: [recordActivities(seen)] },
      plugins: [plugin],
    });
    running = worker.run();
    client = new Client({
      connection: connections.client.connection,
      namespace: connections.namespace,
      dataConverter: { payloadCodecs: [new ShopCodec()] },
      plugins: [plugin],
    });
    toolrail = new ToolrailClient({ client, taskQueue, contentStore });
  });

  afterAll(async () => {
    if (worker?.getState() === 'RUNNING') worker.shutdown();
    await running;
    killWorkerChildren(children);
    await connections?.close();
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  const chargesInLedger = (): { orderId: string; amountCents: number; attempt: number; workflowId: string }[] =>
    readFileSync(ledger, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { orderId: string; amountCents: number; attempt: number; workflowId: string });

  it("runs the shop's own order workflow as before: its activities on both workers, its codec and its interceptors", async () => {
    const orderId = uniqueName('ORD');
    const order = await client.workflow.start<typeof placeOrder>('placeOrder', {
      taskQueue,
      workflowId: orderId,
      args: [{ orderId, amountCents: 2_500, paymentsQueue }],
    });
    expect(await order.result()).toEqual({
      reserved: 1,
      chargeId: `charge-${orderId}-2500`,
      notified: `${orderId}: charged 2500`,
    });
    expect(chargesInLedger().filter((charge) => charge.orderId === orderId)).toEqual([
      expect.objectContaining({ orderId, amountCents: 2_500 }),
    ]);
    // Its workflow interceptor still puts the tenant on its activities, and its activity interceptor still sees them.
    expect(seen).toContainEqual({ activityType: 'notifyCustomer', tenant: 'acme' });
    // Its codec still encodes what the server keeps.
    const history = await order.fetchHistory();
    const started = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
    expect(new TextDecoder().decode(started?.metadata?.['encoding'] ?? new Uint8Array())).toBe(shopEncoding);
  });

  it('runs an agent session as a child of the order: the rules refuse an early charge, the order approves one charge and denies the next, and gets the answer', async () => {
    const orderId = uniqueName('ORD');
    const sessionId = `${orderId}-agent`;
    scriptedModels.set(orderId, shopAgentScript(orderId));
    const order = await client.workflow.start<typeof orderWithAgent>('orderWithAgent', {
      taskQueue,
      workflowId: orderId,
      args: [
        {
          orderId,
          amountCents: 1_500,
          paymentsQueue,
          sessionId,
          rules: shopAgentRules,
          model: { provider: 'scripted', model: orderId },
          request: 'Please charge my order.',
          approveUpToCents: 1_500,
        },
      ],
    });
    const outcome = await order.result();
    expect(outcome.decisions).toEqual([
      { callId: 'charge', decision: 'approved' },
      { callId: 'overcharge', decision: 'denied' },
    ]);
    expect(outcome.events).toEqual(['approvals_requested', 'approvals_requested', 'run_ended', 'session_ended']);
    expect(outcome.result).toMatchObject({
      sessionId,
      status: 'completed',
      lastRunEnd: 'answered',
      answer: `Charged 15.00 for ${orderId}; a second charge was refused.`,
      parentCancelled: false,
      counters: { runs: 1, blockedCalls: 1 },
    });
    expect(outcome.result.usage.session.modelCalls).toBe(5);
    // The approved charge ran once, as the shop's chargeCard on its payments worker; the refused and denied ones never ran.
    expect(chargesInLedger().filter((charge) => charge.orderId === orderId)).toEqual([
      expect.objectContaining({ orderId, amountCents: 1_500, attempt: 1, workflowId: sessionId }),
    ]);

    // The child is a session like any other: its queries, its transcript, its parent.
    const session = toolrail.getSession(sessionId);
    expect(await session.status()).toMatchObject({ status: 'completed', lastRunEnd: 'answered' });
    const lines = outline(await session.transcript());
    expect(lines).toContain('verdict:charge_card#early-charge:blocked');
    expect(lines).toContain('tool:charge_card#charge:ok');
    expect(lines).toContain('tool:charge_card#overcharge:APPROVAL_DENIED');
    const description = await client.workflow.getHandle(sessionId).describe();
    expect(description.parentExecution?.workflowId).toBe(orderId);
    expect(description.type).toBe('agentSession');
    // The shop's interceptors reached the session's activities too (one bundle, one interceptor chain).
    expect(seen).toContainEqual({ activityType: 'callModel', tenant: 'acme' });
    expect(seen).toContainEqual({ activityType: 'decideSessionToolCall', tenant: 'acme' });
  });

  it("interrupts the child session from the order, and the order's cancellation interrupts and ends it", async () => {
    const orderId = uniqueName('ORD');
    const sessionId = `${orderId}-agent`;
    scriptedModels.set(
      orderId,
      createScriptedModel([
        toolCallResponse('check_warehouse', { hold: true }, { id: 'first-check' }),
        toolCallResponse('check_warehouse', { hold: true }, { id: 'second-check' }),
        textResponse('unreached'),
      ]),
    );
    const order = await client.workflow.start<typeof orderWithAgent>('orderWithAgent', {
      taskQueue,
      workflowId: orderId,
      args: [
        {
          orderId,
          amountCents: 1_500,
          paymentsQueue,
          sessionId,
          rules: compileRules({ toolrail: 1, rules: [] }),
          model: { provider: 'scripted', model: orderId },
          request: 'Is it in stock?',
          approveUpToCents: 0,
        },
      ],
    });
    await probe.started('first-check');
    await order.signal(interruptAgentSignal, 'Check again, please.');
    expect(await probe.ended('first-check')).toMatchObject({ sawAbort: true, end: 'aborted' });
    await probe.started('second-check');
    await order.cancel();
    expect(await probe.ended('second-check')).toMatchObject({ sawAbort: true, end: 'aborted' });

    const failure = await order.result().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    expect((await order.describe()).status.name).toBe('CANCELLED');
    const outcome: AgentOrderOutcome | undefined = await order.query(agentOutcomeQuery);
    expect(outcome?.events).toEqual(['run_ended']);
    expect(outcome?.result).toMatchObject({
      sessionId,
      status: 'completed',
      lastRunEnd: 'interrupted',
      parentCancelled: true,
      counters: { runs: 2 },
    });
    const session = toolrail.getSession(sessionId);
    const lines = outline(await session.transcript());
    expect(lines.filter((line) => line === 'run-end:interrupted')).toHaveLength(2);
    expect(lines).toContain('user:Check again, please.');
  });

  it('makes a call of an activity tool whose activity no worker has wait, with status waiting_for_worker, and runs it once a worker takes it, under a stable activity id', async () => {
    const sessionId = uniqueName('refund');
    const refunds: string[] = [];
    scriptedModels.set(
      sessionId,
      createScriptedModel([
        toolCallResponse('refund_card', { orderId: 'ORD-9', amountCents: 700 }, { id: 'refund' }),
        textResponse('Refunded.'),
      ]),
    );
    const session = await toolrail.startSession({
      sessionId,
      rules: compileRules({ toolrail: 1, rules: [] }),
      model: { provider: 'scripted', model: sessionId },
      firstMessage: 'Refund ORD-9.',
      interactive: false,
    });
    const waiting = await pollUntil(
      () => session.status(),
      (status) => status.status === 'waiting_for_worker',
    );
    expect(waiting.workerWaits).toEqual([
      expect.objectContaining({
        callId: 'refund',
        tool: 'refund_card',
        taskQueue: refundsQueue,
        activityType: 'refundCard',
        why: 'no worker took it',
      }),
    ]);
    const transcript = await session.transcript();
    expect(transcript.filter((entry) => entry.kind === 'notice').map((entry) => entry.text)).toContainEqual(
      expect.stringContaining(
        `refund_card (call refund) waits for a worker of task queue ${refundsQueue} with activity refundCard`,
      ),
    );
    const refundsWorker = await Worker.create({
      connection: connections.nativeConnection,
      namespace: connections.namespace,
      taskQueue: refundsQueue,
      activities: {
        refundCard: ({ orderId }: { orderId: string }) => {
          refunds.push(orderId);
          return Promise.resolve({ refunded: orderId });
        },
      },
      dataConverter: { payloadCodecs: [new ShopCodec()] },
    });
    const ended = await refundsWorker.runUntil(session.result());
    expect(ended).toMatchObject({ status: 'completed', lastRunEnd: 'answered' });
    expect(ended.workerWaits).toBeUndefined();
    expect(refunds).toEqual(['ORD-9']);
    const waits = [];
    for await (const event of session.events()) {
      if (event.type === 'worker_waiting' || event.type === 'worker_back') waits.push(event.type);
      if (event.type === 'session_ended') break;
    }
    expect(waits).toEqual(['worker_waiting', 'worker_back']);
    const { events } = await client.workflow.getHandle(sessionId).fetchHistory();
    const scheduled = (events ?? []).flatMap((event) => {
      const attributes = event.activityTaskScheduledEventAttributes;
      return attributes?.activityType?.name === 'refundCard' ? [attributes.activityId] : [];
    });
    expect(new Set(scheduled)).toEqual(new Set(['toolrail/0/refund']));
  });

  it('refuses a child session started with a bad input, naming the problem, and starts nothing', async () => {
    const orderId = uniqueName('ORD');
    const refused = await client.workflow.execute<typeof orderWithSessionInput>('orderWithSessionInput', {
      taskQueue,
      workflowId: orderId,
      args: [{ rules: { toolrail: 1, rules: [] }, model: { provider: 'scripted', model: 'none' } }],
    });
    expect(refused).toMatchObject({ code: 'INVALID_SESSION_INPUT' });
    expect(refused !== 'started' && refused.problems.join('\n')).toMatch(/^rules: /m);
    await expect(client.workflow.getHandle(`${orderId}-agent`).describe()).rejects.toThrow(/not found/i);
  });
});
