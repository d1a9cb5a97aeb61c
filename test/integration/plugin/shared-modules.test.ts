import path from 'node:path';
import { Client } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolrailClient } from '../../../src/client/toolrail-client';
import { createScriptedModel, textResponse } from '../../../src/models';
import { toolrailPlugin } from '../../../src/worker';
import { bundleSessionWorkflows } from '../../../src/worker/bundle-session-workflows';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { testContentStore } from '../../helpers/session-worker';
import { toolrailModulesFrozen } from '../../fixtures/shared-modules/probe-workflows';

const probeWorkflowsPath = path.resolve(__dirname, '../../fixtures/shared-modules/probe-workflows.ts');

describe("toolrail's pure modules, preloaded into the workflow sandbox", () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections?.close();
  });

  it('reach the workflows of a worker with the plugin preloaded (frozen by the SDK), and its sessions run on them', async () => {
    const taskQueue = uniqueName('shared-modules');
    const contentStore = testContentStore();
    const worker = await Worker.create({
      connection: connections.nativeConnection,
      namespace: connections.namespace,
      taskQueue,
      workflowsPath: probeWorkflowsPath,
      plugins: [
        toolrailPlugin({ scriptedModels: { hello: createScriptedModel([textResponse('Hello.')]) }, contentStore }),
      ],
    });
    const client = new Client({ connection: connections.client.connection, namespace: connections.namespace });
    await worker.runUntil(async () => {
      const frozen = await client.workflow.execute(toolrailModulesFrozen, {
        taskQueue,
        workflowId: uniqueName('shared-modules-probe'),
      });
      expect(frozen).toEqual([true, true, true]);
      const session = await new ToolrailClient({ client, taskQueue, contentStore }).startSession({
        rules: compileRules({ toolrail: 1, rules: [] }),
        model: { provider: 'scripted', model: 'hello' },
        firstMessage: 'Hi',
        interactive: false,
      });
      expect((await session.result()).status).toBe('completed');
    });
  });

  it('are preloaded by the bundle createWorker runs, not left out as unused', async () => {
    const { code } = await bundleSessionWorkflows();
    const preload = /exports\.preloadModules = function preloadModules\(\) \{([^}]*)\}/.exec(code)?.[1] ?? '';
    expect(preload).toContain('"./workflows/shared-modules.ts"');
  });
});
