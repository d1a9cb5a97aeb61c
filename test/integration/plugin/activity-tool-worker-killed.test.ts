import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { ToolrailClient } from '../../../src/client/toolrail-client';
import type { LanguageModelV4 } from '../../../src/models';
import { createScriptedModel, textResponse, toolCallResponse } from '../../../src/models';
import { activityTool } from '../../../src/tools';
import { toolrailPlugin } from '../../../src/worker';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { pollUntil } from '../../helpers/poll-until';
import { testContentStore } from '../../helpers/session-worker';
import { outline } from '../../helpers/transcript-entries';
import { killWorkerChildren, startWorkerChild } from '../../helpers/worker-child';
import type { WorkerChild } from '../../helpers/worker-child';
import { ShopCodec } from '../../fixtures/shop/shop-codec';

interface LedgerLine {
  event: 'started' | 'settled';
  invoiceId: string;
  attempt: number;
  pid: number;
}

/**
 * The user's activity worker (the shop's payments worker, a process of its own) killed while an
 * activity tool's call runs on it: the session's workflow sees the attempt time out on its
 * heartbeat, retries a call that may be retried on the next worker, and gives a destructive call's
 * model an error result instead of running it twice.
 */
describe('an activity tool whose worker is killed in the middle of a batch', () => {
  let connections: HarnessConnections;
  let worker: Worker;
  let running: Promise<void>;
  let toolrail: ToolrailClient;
  let directory: string;
  let ledger: string;
  const children = new Set<ChildProcess>();
  const taskQueue = uniqueName('killed-agent');
  const paymentsQueue = uniqueName('killed-payments');
  const scriptedModels = new Map<string, LanguageModelV4>();
  const settleSchema = z.object({ invoiceId: z.string() });

  const startPaymentsWorker = (): Promise<WorkerChild> =>
    startWorkerChild(
      'test/fixtures/shop/payments-worker.ts',
      { TOOLRAIL_TEST_ADDRESS: inject('temporalAddress'), SHOP_PAYMENTS_QUEUE: paymentsQueue, SHOP_LEDGER: ledger },
      children,
    );
  const ledgerLines = (invoiceId: string): LedgerLine[] =>
    readFileSync(ledger, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as LedgerLine)
      .filter((line) => line.invoiceId === invoiceId);
  const release = (invoiceId: string): void => writeFileSync(`${ledger}.${invoiceId}.release`, '');

  beforeAll(async () => {
    connections = await connectToHarness();
    directory = mkdtempSync(path.join(os.tmpdir(), 'toolrail-killed-'));
    ledger = path.join(directory, 'ledger.jsonl');
    writeFileSync(ledger, '');
    const plugin = toolrailPlugin({
      tools: [
        activityTool({
          name: 'settle_invoice',
          description: 'Settles an invoice (safe to repeat).',
          inputSchema: settleSchema,
          activity: { activityType: 'settleInvoice', taskQueue: paymentsQueue },
          isDestructive: () => false,
          requiresPermission: false,
          heartbeatTimeoutMs: 2_000,
          retry: { maximumAttempts: 3, initialIntervalMs: 100 },
        }),
        activityTool({
          name: 'settle_invoice_once',
          description: 'Settles an invoice (destructive: runs at most once).',
          inputSchema: settleSchema,
          activity: { activityType: 'settleInvoice', taskQueue: paymentsQueue },
          requiresPermission: false,
          heartbeatTimeoutMs: 2_000,
        }),
      ],
      scriptedModels,
      contentStore: testContentStore(),
    });
    worker = await Worker.create({
      connection: connections.nativeConnection,
      namespace: connections.namespace,
      taskQueue,
      dataConverter: { payloadCodecs: [new ShopCodec()] },
      plugins: [plugin],
    });
    running = worker.run();
    const client = new Client({
      connection: connections.client.connection,
      namespace: connections.namespace,
      dataConverter: { payloadCodecs: [new ShopCodec()] },
      plugins: [plugin],
    });
    toolrail = new ToolrailClient({ client, taskQueue, contentStore: testContentStore() });
  });

  afterAll(async () => {
    if (worker?.getState() === 'RUNNING') worker.shutdown();
    await running;
    killWorkerChildren(children);
    await connections?.close();
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  /** Starts a session whose model calls `tool` for `invoiceId`, then answers. */
  async function startSettling(tool: string, invoiceId: string) {
    const sessionId = uniqueName('settle');
    scriptedModels.set(
      sessionId,
      createScriptedModel([toolCallResponse(tool, { invoiceId }, { id: 'settle' }), textResponse('Done.')]),
    );
    return toolrail.startSession({
      sessionId,
      rules: compileRules({ toolrail: 1, rules: [] }),
      model: { provider: 'scripted', model: sessionId },
      firstMessage: `Settle ${invoiceId}.`,
      interactive: false,
    });
  }

  it('retries a call that may be retried on the next worker once the killed one misses its heartbeat, and gives its output once', async () => {
    const first = await startPaymentsWorker();
    const session = await startSettling('settle_invoice', 'INV-1');
    await pollUntil(
      () => Promise.resolve(ledgerLines('INV-1')),
      (lines) => lines.some((line) => line.event === 'started' && line.pid === first.pid),
    );
    await first.kill();
    release('INV-1');
    const second = await startPaymentsWorker();
    const ended = await session.result();
    await second.stop();
    expect(ended).toMatchObject({ status: 'completed', lastRunEnd: 'answered' });
    expect(ledgerLines('INV-1').map(({ event, attempt, pid }) => [event, attempt, pid])).toEqual([
      ['started', 1, first.pid],
      ['started', 2, second.pid],
      ['settled', 2, second.pid],
    ]);
    const transcript = await session.transcript();
    expect(outline(transcript).filter((line) => line.startsWith('tool:'))).toEqual(['tool:settle_invoice#settle:ok']);
  });

  it("gives a destructive call's model an error result when its worker is killed, and never runs it again", async () => {
    const first = await startPaymentsWorker();
    const session = await startSettling('settle_invoice_once', 'INV-2');
    await pollUntil(
      () => Promise.resolve(ledgerLines('INV-2')),
      (lines) => lines.some((line) => line.event === 'started' && line.pid === first.pid),
    );
    await first.kill();
    const second = await startPaymentsWorker();
    const ended = await session.result();
    release('INV-2');
    await second.stop();
    expect(ended).toMatchObject({ status: 'completed', lastRunEnd: 'answered' });
    expect(ledgerLines('INV-2').map(({ event, attempt }) => [event, attempt])).toEqual([['started', 1]]);
    const transcript = await session.transcript();
    const results = transcript.flatMap((entry) => (entry.kind === 'tool' ? [entry] : []));
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ tool: 'settle_invoice_once', callId: 'settle', isError: true });
  });
});
