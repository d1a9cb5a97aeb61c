import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';

/**
 * Deletes the workflows `workflowIds` of `taskQueue` (their latest run, history and visibility
 * record) from the server and waits until the server lists none of that task queue's any more.
 * The scale benchmark forgets each round's sessions once it has read them, so every round starts
 * on a server that holds none of the rounds before: a dev server's SQLite store costs more per
 * turn the more sessions it holds, and that drift would otherwise weigh on whichever variant ran
 * later. The server deletes in the background, in its own time (an idle dev server takes up to a
 * minute to begin); waiting for it keeps that work out of the next round.
 */
export async function forgetSessions(
  client: Client,
  taskQueue: string,
  workflowIds: readonly string[],
  { concurrency = 16, timeoutMs = 300_000 } = {},
): Promise<void> {
  const { namespace } = client.options;
  let next = 0;
  const deleteSome = async (): Promise<void> => {
    for (let index = next++; index < workflowIds.length; index = next++) {
      await client.workflowService.deleteWorkflowExecution({
        namespace,
        workflowExecution: { workflowId: workflowIds[index] as string },
      });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, deleteSome));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { count } = await client.workflow.count(`TaskQueue = '${taskQueue}'`);
    if (count === 0) return;
    if (Date.now() > deadline)
      throw new Error(`the server still lists ${count} workflows of ${taskQueue} ${timeoutMs} ms after deleting them`);
    await sleep(1_000);
  }
}
