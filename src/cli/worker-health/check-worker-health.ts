import { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { ResolvedConnection } from '../connection/resolve-connection';
import { healthFileIntervalMs, readHealthFile } from './worker-health-file';

/** A health file older than this is a hung or dead worker's, in ms (three missed writes). */
const staleAfterMs = 3 * healthFileIntervalMs;

/**
 * A poller the server last saw longer ago than this is gone, in ms. An idle worker's long poll
 * lasts up to about 70 s before it polls again.
 */
const pollerGoneAfterMs = 120_000;

/** The verdict of {@link checkWorkerHealth}: healthy or not, and why, in one line. */
export interface WorkerHealth {
  healthy: boolean;
  reason: string;
}

/**
 * Checks the worker that keeps `file`, from both sides: its health file is fresh, its process is
 * alive and its state is RUNNING; and the server lists its identity among the pollers of its task
 * queue, for workflow tasks and for activity tasks, seen within the last two minutes.
 */
export async function checkWorkerHealth(file: string, connection: ResolvedConnection): Promise<WorkerHealth> {
  let record;
  try {
    record = readHealthFile(file);
  } catch (error) {
    return { healthy: false, reason: error instanceof Error ? error.message : String(error) };
  }
  if (!isAlive(record.pid)) return { healthy: false, reason: `the worker process ${record.pid} is gone` };
  const age = Date.now() - record.updatedAt;
  if (age > staleAfterMs) {
    return { healthy: false, reason: `the worker's health file is ${Math.round(age / 1000)} s old: the worker hangs` };
  }
  if (record.state !== 'RUNNING') return { healthy: false, reason: `the worker is ${record.state}, not RUNNING` };

  const client = await Connection.connect({
    address: connection.address,
    ...(connection.tls !== undefined ? { tls: connection.tls } : {}),
    ...(connection.apiKey ? { apiKey: connection.apiKey } : {}),
    ...(connection.metadata ? { metadata: connection.metadata } : {}),
    connectTimeout: 5_000,
  });
  try {
    const types = [
      ['workflow', temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW],
      ['activity', temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY],
    ] as const;
    for (const [kind, taskQueueType] of types) {
      const { pollers } = await client.workflowService.describeTaskQueue({
        namespace: record.namespace,
        taskQueue: { name: record.taskQueue, kind: temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
        taskQueueType,
      });
      const mine = (pollers ?? []).find((poller) => poller.identity === record.identity);
      const lastSeen = mine?.lastAccessTime ? timestampMs(mine.lastAccessTime) : undefined;
      if (lastSeen === undefined || Date.now() - lastSeen > pollerGoneAfterMs) {
        return {
          healthy: false,
          reason: `the server lists no recent ${kind}-task poller ${record.identity} on task queue ${record.taskQueue} (namespace ${record.namespace})`,
        };
      }
    }
  } finally {
    await client.close();
  }
  return {
    healthy: true,
    reason: `worker ${record.identity} polls task queue ${record.taskQueue} (namespace ${record.namespace}) for workflow and activity tasks`,
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, but another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A protobuf timestamp in ms since the epoch (its seconds may be a Long). */
function timestampMs({
  seconds,
  nanos,
}: {
  seconds?: { toString(): string } | number | null;
  nanos?: number | null;
}): number {
  return Number(String(seconds ?? 0)) * 1000 + Math.floor((nanos ?? 0) / 1e6);
}
