import path from 'node:path';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmokeActivities } from '../../../activities/smoke-activities';
import { finishSmokeSignal, smokeStageQuery, smokeWorkflow } from '../../../workflows/smoke-workflow';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';

describe('the harness dev server', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  it('runs a workflow from workflows/ with an activity round trip, a query and a signal', async () => {
    const taskQueue = uniqueName('smoke');
    const worker = await Worker.create({
      connection: connections.nativeConnection,
      namespace: connections.namespace,
      taskQueue,
      workflowsPath: path.resolve(__dirname, '../../../workflows/index.ts'),
      activities: createSmokeActivities(),
    });
    const result = await worker.runUntil(async () => {
      const handle = await connections.client.workflow.start(smokeWorkflow, {
        taskQueue,
        workflowId: uniqueName('smoke'),
        args: ['toolrail'],
      });
      await expect.poll(() => handle.query(smokeStageQuery), { timeout: 10_000 }).toBe('waiting-for-finish');
      await handle.signal(finishSmokeSignal, { note: 'signalled' });
      return handle.result();
    });
    expect(result).toBe('Hello, toolrail! (signalled)');
  });
});
