import path from 'node:path';
import { WorkflowNotFoundError } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetTaskQueue } from '../../../bench/scale/forget-task-queue';
import { createSmokeActivities } from '../../fixtures/smoke/smoke-activities';
import { finishSmokeSignal, smokeWorkflow } from '../../fixtures/smoke/smoke-workflow';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { pollUntil } from '../../helpers/poll-until';

describe('the scale benchmark between rounds', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  // The server deletes in its own time (an idle dev server may take a minute to begin).
  it(
    'deletes every run of a round’s task queue, earlier runs of a workflow too, and leaves other queues',
    { timeout: 360_000 },
    async () => {
      const { client, nativeConnection, namespace } = connections;
      const roundQueue = uniqueName('round');
      const otherQueue = uniqueName('other');
      /** Runs a workflow to its end on `taskQueue`; resolves to its run's id. */
      const runOne = async (taskQueue: string, workflowId: string): Promise<string> => {
        const handle = await client.workflow.start(smokeWorkflow, { taskQueue, workflowId, args: ['round'] });
        await handle.signal(finishSmokeSignal, { note: 'done' });
        await handle.result();
        return handle.firstExecutionRunId;
      };
      const worker = (taskQueue: string) =>
        Worker.create({
          connection: nativeConnection,
          namespace,
          taskQueue,
          workflowsPath: path.resolve(__dirname, '../../fixtures/smoke/smoke-workflow.ts'),
          activities: createSmokeActivities(),
        });
      const ids = Array.from({ length: 3 }, () => uniqueName('forget'));
      const kept = uniqueName('kept');
      const runs = await (
        await worker(roundQueue)
      ).runUntil(async () => {
        const first = await Promise.all(ids.map((id) => runOne(roundQueue, id)));
        // The same workflow id again: a second run, as a session that continued as new has.
        const again = await runOne(roundQueue, ids[0] as string);
        return [
          ...ids.map((id, index) => ({ id, runId: first[index] as string })),
          { id: ids[0] as string, runId: again },
        ];
      });
      const keptRun = await (await worker(otherQueue)).runUntil(() => runOne(otherQueue, kept));
      // As in the benchmark, whose rounds are read before they are forgotten: the server lists them as closed.
      await pollUntil(
        async () =>
          (await client.workflow.count(`TaskQueue = '${roundQueue}' AND ExecutionStatus = 'Completed'`)).count,
        (closed) => closed === runs.length,
      );

      await forgetTaskQueue(client, roundQueue, { concurrency: 2 });

      const found = (workflowId: string, runId: string): Promise<boolean> =>
        client.workflow
          .getHandle(workflowId, runId)
          .describe()
          .then(
            () => true,
            (error: unknown) => {
              if (error instanceof WorkflowNotFoundError) return false;
              throw error;
            },
          );
      expect(await Promise.all(runs.map(({ id, runId }) => found(id, runId)))).toEqual(runs.map(() => false));
      expect(await client.workflow.count(`TaskQueue = '${roundQueue}'`)).toMatchObject({ count: 0 });
      expect(await found(kept, keptRun)).toBe(true);
    },
  );
});
