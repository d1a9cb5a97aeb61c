import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolrailClient } from '../../../src/client/toolrail-client';
import { LocalLiveChannel, sessionTopic } from '../../../src/live';
import type { LiveMessage } from '../../../src/live';
import { createScriptedModel, textResponse } from '../../../src/models';
import type { FeedEvent } from '../../../src/session';
import { toolrailPlugin } from '../../../src/worker';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { pollUntil } from '../../helpers/poll-until';
import { testContentStore } from '../../helpers/session-worker';
import { shopActivities } from '../../fixtures/shop/shop-activities';

const shopWorkflowsPath = path.resolve(__dirname, '../../fixtures/shop/shop-workflows.ts');

describe("toolrail's plugin with a live channel on a worker of the user's own workflows", () => {
  let connections: HarnessConnections;
  let directory: string;
  beforeAll(async () => {
    connections = await connectToHarness();
    directory = mkdtempSync(path.join(os.tmpdir(), 'toolrail-plugin-live-'));
  });
  afterAll(async () => {
    await connections?.close();
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  it("publishes every feed event of a session on the channel, in order, from the bundle the SDK builds for the worker's workflows", async () => {
    const taskQueue = uniqueName('plugin-live');
    const contentStore = testContentStore();
    const workerChannel = new LocalLiveChannel({ directory });
    const subscriberChannel = new LocalLiveChannel({ directory });
    const toolrail = toolrailPlugin({
      scriptedModels: { hello: createScriptedModel([textResponse('Hello from the session.')]) },
      contentStore,
      live: workerChannel,
    });
    const worker = await Worker.create({
      connection: connections.nativeConnection,
      namespace: connections.namespace,
      taskQueue,
      workflowsPath: shopWorkflowsPath,
      activities: shopActivities,
      plugins: [toolrail],
    });
    const client = new Client({ connection: connections.client.connection, namespace: connections.namespace });
    const sessionId = uniqueName('plugin-live-session');
    const published: FeedEvent[] = [];
    try {
      await worker.runUntil(async () => {
        // Subscribed, and heard by the worker's channel, before the session's first event.
        let subscriptionUp: () => void = () => undefined;
        const up = new Promise<void>((resolve) => (subscriptionUp = resolve));
        const subscription = subscriberChannel.subscribe(sessionTopic(connections.namespace, sessionId), {
          onMessage: (message: LiveMessage) => {
            if (message.kind === 'events') published.push(...message.events);
          },
          onState: (state) => state === 'up' && subscriptionUp(),
        });
        await up;
        const session = await new ToolrailClient({ client, taskQueue, contentStore }).startSession({
          sessionId,
          rules: compileRules({ toolrail: 1, rules: [] }),
          model: { provider: 'scripted', model: 'hello' },
          firstMessage: 'Hi',
          interactive: false,
        });
        await session.result();
        await pollUntil(
          () => Promise.resolve(published.at(-1)?.type),
          (type) => type === 'session_ended',
        );
        subscription.close();
      });
    } finally {
      await subscriberChannel.close();
      await workerChannel.close();
    }
    expect(published.map((event) => event.offset)).toEqual(published.map((_, index) => index));
    expect(published.map((event) => event.type)).toEqual(
      expect.arrayContaining(['run_started', 'model_responded', 'session_ended']),
    );
  });
});
