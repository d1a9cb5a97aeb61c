import { setTimeout as sleep } from 'node:timers/promises';
import { isGrpcServiceError } from '@temporalio/client';
import type { Client } from '@temporalio/client';
import { inParallel } from './in-parallel';

/** gRPC's status code NOT_FOUND. */
const notFound = 5;

/**
 * Deletes every workflow run of `taskQueue` (history and visibility record: each run of a session
 * that continued as new) from the server, and waits until the server lists none. The scale
 * benchmark forgets each round's sessions once it has read them, so every round starts on a
 * server that holds none of the rounds before: a dev server's SQLite store costs more per turn the
 * more sessions it holds, and that drift would otherwise weigh on whichever variant ran later. The
 * server deletes in the background, in its own time (an idle dev server may take a minute to
 * begin); waiting for it keeps that work out of the next round. At most `timeoutMs` (default five
 * minutes), then it throws.
 */
export async function forgetTaskQueue(
  client: Client,
  taskQueue: string,
  { concurrency = 16, timeoutMs = 300_000 } = {},
): Promise<void> {
  const query = `TaskQueue = '${taskQueue}'`;
  const requested = new Set<string>();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const listed: { workflowId: string; runId: string }[] = [];
    for await (const { workflowId, runId } of client.workflow.list({ query })) listed.push({ workflowId, runId });
    if (listed.length === 0) return;
    // A run asked for once is not asked again while the server gets to it.
    const fresh = listed.filter(({ runId }) => !requested.has(runId));
    for (const { runId } of fresh) requested.add(runId);
    await inParallel(fresh, concurrency, (execution) => deleteRun(client, execution));
    if (Date.now() > deadline)
      throw new Error(
        `the server still lists ${listed.length} workflow runs of ${taskQueue} ${timeoutMs} ms after deleting them`,
      );
    await sleep(1_000);
  }
}

async function deleteRun(client: Client, workflowExecution: { workflowId: string; runId: string }): Promise<void> {
  try {
    await client.workflowService.deleteWorkflowExecution({ namespace: client.options.namespace, workflowExecution });
  } catch (error) {
    // Gone already: what was asked for is done.
    if (!isGrpcServiceError(error) || Number(error.code) !== notFound) throw error;
  }
}
