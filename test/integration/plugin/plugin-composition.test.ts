import path from 'node:path';
import { InMemorySpanExporter, SimpleSpanProcessor, BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { Client } from '@temporalio/client';
import { AiSdkPlugin } from '@temporalio/ai-sdk';
import { OpenTelemetryPlugin } from '@temporalio/interceptors-opentelemetry';
import { Worker } from '@temporalio/worker';
import type { WorkerPlugin } from '@temporalio/worker';
import { customProvider } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolrailClient } from '../../../src/client/toolrail-client';
import { createScriptedModel, textResponse } from '../../../src/models';
import { toolrailPlugin } from '../../../src/worker';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { testContentStore } from '../../helpers/session-worker';
import { shopActivities } from '../../fixtures/shop/shop-activities';
import type { notifyOrder } from '../../fixtures/shop/shop-workflows';
import type { summarizeOrder } from '../../fixtures/shop/summary-workflows';

const shopWorkflowsPath = path.resolve(__dirname, '../../fixtures/shop/shop-workflows.ts');
const summaryWorkflowsPath = path.resolve(__dirname, '../../fixtures/shop/summary-workflows.ts');
const noRules = compileRules({ toolrail: 1, rules: [] });

describe("toolrail's plugin beside another Temporal plugin", () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  /** Runs `body` while a worker of the shop's `workflowsPath` with `plugins` (toolrail's among them) serves. */
  async function withWorker<T>(
    { workflowsPath, plugins }: { workflowsPath: string; plugins: (toolrail: WorkerPlugin) => WorkerPlugin[] },
    body: (scope: { client: Client; toolrail: ToolrailClient; taskQueue: string }) => Promise<T>,
  ): Promise<T> {
    const taskQueue = uniqueName('composed');
    const contentStore = testContentStore();
    const toolrail = toolrailPlugin({
      scriptedModels: { hello: createScriptedModel([textResponse('Hello from the session.')]) },
      contentStore,
    });
    const worker = await Worker.create({
      connection: connections.nativeConnection,
      namespace: connections.namespace,
      taskQueue,
      workflowsPath,
      activities: shopActivities,
      plugins: plugins(toolrail),
    });
    const client = new Client({
      connection: connections.client.connection,
      namespace: connections.namespace,
      plugins: [toolrail],
    });
    return worker.runUntil(
      body({ client, toolrail: new ToolrailClient({ client, taskQueue, contentStore }), taskQueue }),
    );
  }

  /** Starts a session that answers at once and returns how it ended. */
  async function runSession(toolrail: ToolrailClient): Promise<unknown> {
    const session = await toolrail.startSession({
      rules: noRules,
      model: { provider: 'scripted', model: 'hello' },
      firstMessage: 'Hi',
      interactive: false,
    });
    return session.result();
  }

  it.each([
    { order: 'OpenTelemetryPlugin first', toolrailFirst: false },
    { order: "toolrail's plugin first", toolrailFirst: true },
  ])("traces the shop's workflows and the sessions through OpenTelemetryPlugin ($order)", async ({ toolrailFirst }) => {
    const exporter = new InMemorySpanExporter();
    const spanProcessor = new SimpleSpanProcessor(exporter);
    const provider = new BasicTracerProvider({ spanProcessors: [spanProcessor] });
    const otel = new OpenTelemetryPlugin({
      resource: provider.resource,
      spanProcessor,
      tracer: provider.getTracer('shop'),
    });
    await withWorker(
      {
        workflowsPath: shopWorkflowsPath,
        plugins: (toolrail) => (toolrailFirst ? [toolrail, otel] : [otel, toolrail]),
      },
      async ({ client, toolrail, taskQueue }) => {
        const orderId = uniqueName('ORD');
        expect(
          await client.workflow.execute<typeof notifyOrder>('notifyOrder', {
            taskQueue,
            workflowId: orderId,
            args: [orderId],
          }),
        ).toBe(`${orderId}: on its way`);
        expect(await runSession(toolrail)).toMatchObject({ status: 'completed', lastRunEnd: 'answered' });
      },
    );
    await spanProcessor.forceFlush();
    const names = new Set(exporter.getFinishedSpans().map((span) => span.name));
    for (const name of [
      'RunWorkflow:notifyOrder',
      'RunActivity:notifyCustomer',
      'RunWorkflow:agentSession',
      'toolrail.turn',
      'toolrail.model_call',
      'RunActivity:callModel',
    ])
      expect(names).toContain(name);
  });

  it.each([
    { order: 'AiSdkPlugin first', toolrailFirst: false },
    { order: "toolrail's plugin first", toolrailFirst: true },
  ])(
    "runs AiSdkPlugin's model calls from the shop's workflow and toolrail's sessions ($order)",
    async ({ toolrailFirst }) => {
      const summarizer = createScriptedModel([textResponse('One order, on its way.')]);
      const ai = new AiSdkPlugin({ modelProvider: customProvider({ languageModels: { summarizer } }) });
      await withWorker(
        {
          workflowsPath: summaryWorkflowsPath,
          plugins: (toolrail) => (toolrailFirst ? [toolrail, ai] : [ai, toolrail]),
        },
        async ({ client, toolrail, taskQueue }) => {
          const orderId = uniqueName('ORD');
          expect(
            await client.workflow.execute<typeof summarizeOrder>('summarizeOrder', {
              taskQueue,
              workflowId: orderId,
              args: [orderId],
            }),
          ).toBe('One order, on its way.');
          expect(await runSession(toolrail)).toMatchObject({ status: 'completed', lastRunEnd: 'answered' });
        },
      );
    },
  );
});
