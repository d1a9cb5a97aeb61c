import path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectToHarness, uniqueName } from '../harness/connect';
import type { HarnessConnections } from '../harness/connect';
import type { patchedChange } from '../fixtures/patched-change/released';

const fixture = (version: string): string => path.resolve(__dirname, '../fixtures/patched-change', `${version}.ts`);

describe('a change to the workflow made with sessionPatched', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  /** Runs the workflow of `version` on the dev server to its end, and returns its history. */
  async function record(version: string) {
    const taskQueue = uniqueName('patched-change');
    const worker = await Worker.create({
      connection: connections.nativeConnection,
      namespace: connections.namespace,
      taskQueue,
      workflowsPath: fixture(version),
    });
    return worker.runUntil(async () => {
      const handle: WorkflowHandle<typeof patchedChange> = await connections.client.workflow.start<
        typeof patchedChange
      >('patchedChange', { taskQueue, workflowId: uniqueName('patched-change'), args: ['toolrail'] });
      expect(await handle.result()).toBe('Hello, toolrail!');
      return handle.fetchHistory();
    });
  }

  it('replays a history the released version recorded, and one the changed version recorded', async () => {
    const released = await record('released');
    await expect(Worker.runReplayHistory({ workflowsPath: fixture('patched') }, released)).resolves.toBeUndefined();
    const changed = await record('patched');
    const markers = (changed.events ?? []).filter(
      (event) => event.markerRecordedEventAttributes?.markerName === 'core_patch',
    );
    expect(markers).toHaveLength(1);
    await expect(Worker.runReplayHistory({ workflowsPath: fixture('patched') }, changed)).resolves.toBeUndefined();
  });

  it('fails the released version’s history with a DeterminismViolationError when the change is made without it', async () => {
    const released = await record('released');
    await expect(Worker.runReplayHistory({ workflowsPath: fixture('unpatched') }, released)).rejects.toBeInstanceOf(
      DeterminismViolationError,
    );
  });
});
