import path from 'node:path';
import { WorkflowNotFoundError } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetSessions } from '../../../bench/scale/forget-sessions';
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
    'deletes the finished workflows of a round and returns once the server lists none of them',
    { timeout: 360_000 },
    async () => {
      const { client, nativeConnection, namespace } = connections;
      const roundQueue = uniqueName('round');
      const otherQueue = uniqueName('other');
      const runAll = async (taskQueue: string, workflowIds: string[]): Promise<void> => {
        const worker = await Worker.create({
          connection: nativeConnection,
          namespace,
          taskQueue,
          workflowsPath: path.resolve(__dirname, '../../fixtures/smoke/smoke-workflow.ts'),
          activities: createSmokeActivities(),
        });
        await worker.runUntil(
          Promise.all(
            workflowIds.map(async (workflowId) => {
              const handle = await client.workflow.start(smokeWorkflow, { taskQueue, workflowId, args: ['round'] });
              await handle.signal(finishSmokeSignal, { note: 'done' });
              return handle.result();
            }),
          ),
        );
        // As in the benchmark, whose rounds are read before they are forgotten: the server lists them as closed.
        await pollUntil(
          async () =>
            (await client.workflow.count(`TaskQueue = '${taskQueue}' AND ExecutionStatus = 'Completed'`)).count,
          (closed) => closed === workflowIds.length,
        );
      };
      const round = Array.from({ length: 4 }, () => uniqueName('forget'));
      const other = uniqueName('kept');
      await runAll(roundQueue, round);
      await runAll(otherQueue, [other]);

      await forgetSessions(client, roundQueue, round, { concurrency: 2 });

      const found = (workflowId: string): Promise<boolean> =>
        client.workflow
          .getHandle(workflowId)
          .describe()
          .then(
            () => true,
            (error: unknown) => {
              if (error instanceof WorkflowNotFoundError) return false;
              throw error;
            },
          );
      expect(await Promise.all(round.map(found))).toEqual([false, false, false, false]);
      expect(await client.workflow.count(`TaskQueue = '${roundQueue}'`)).toMatchObject({ count: 0 });
      expect(await found(other)).toBe(true);
    },
  );
});
