import path from 'node:path';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmokeActivities } from '../../fixtures/smoke/smoke-activities';
import { finishSmokeSignal, smokeStageQuery, smokeWorkflow } from '../../fixtures/smoke/smoke-workflow';
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

  it('runs a workflow with an activity round trip, a signal and a query', async () => {
    const taskQueue = uniqueName('smoke');
    const worker = await Worker.create({
      connection: connections.nativeConnection,
      namespace: connections.namespace,
      taskQueue,
      workflowsPath: path.resolve(__dirname, '../../fixtures/smoke/smoke-workflow.ts'),
      activities: createSmokeActivities(),
    });
    const result = await worker.runUntil(async () => {
      const handle = await connections.client.workflow.start(smokeWorkflow, {
        taskQueue,
        workflowId: uniqueName('smoke'),
        args: ['toolrail'],
      });
      // The signal is delivered whatever the workflow is doing; it ends only once the activity answered and the note arrived.
      await handle.signal(finishSmokeSignal, { note: 'signalled' });
      const greeting = await handle.result();
      return { greeting, stage: await handle.query(smokeStageQuery) };
    });
    expect(result).toEqual({ greeting: 'Hello, toolrail! (signalled)', stage: 'done' });
  });
});
