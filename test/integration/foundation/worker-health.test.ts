import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ResolvedConnection } from '../../../src/cli/connection/resolve-connection';
import { checkWorkerHealth, keepHealthFile, readHealthFile } from '../../../src/cli/worker-health';
import type { WorkerHealthRecord } from '../../../src/cli/worker-health';
import { createWorker } from '../../../src/worker/create-worker';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { pollUntil } from '../../helpers/poll-until';

/** `toolrail worker --health`: the health file a worker keeps, checked from the file's side and the server's. */
describe('the worker health check', () => {
  let connections: HarnessConnections;
  let directory: string;
  let connection: ResolvedConnection;

  beforeAll(async () => {
    connections = await connectToHarness();
    directory = mkdtempSync(path.join(os.tmpdir(), 'toolrail-health-'));
    connection = {
      address: inject('temporalAddress'),
      namespace: connections.namespace,
      taskQueue: 'unused',
      uiUrl: 'http://localhost:8233',
    };
  });
  afterAll(async () => {
    await connections?.close();
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  /** Writes a health record as a worker would, with `changes` applied. */
  function healthFile(name: string, changes: Partial<WorkerHealthRecord>): string {
    const file = path.join(directory, `${name}.json`);
    const record: WorkerHealthRecord = {
      pid: process.pid,
      identity: 'nobody@nowhere',
      namespace: connections.namespace,
      taskQueue: uniqueName('health'),
      state: 'RUNNING',
      updatedAt: Date.now(),
      ...changes,
    };
    writeFileSync(file, JSON.stringify(record));
    return file;
  }

  it('finds a running worker healthy once the server lists it polling, and its file gone after shutdown', async () => {
    const taskQueue = uniqueName('health');
    const worker = await createWorker({
      connection: connections.nativeConnection,
      namespace: connections.namespace,
      taskQueue,
      tools: [],
    });
    const file = path.join(directory, 'worker', 'health.json');
    const running = worker.run();
    const removeHealthFile = keepHealthFile(worker, file);
    try {
      expect(readHealthFile(file)).toMatchObject({
        pid: process.pid,
        identity: worker.options.identity,
        namespace: connections.namespace,
        taskQueue,
        state: 'RUNNING',
      });
      const health = await pollUntil(
        () => checkWorkerHealth(file, connection),
        ({ healthy }) => healthy,
      );
      expect(health.reason).toBe(
        `worker ${worker.options.identity} polls task queue ${taskQueue} (namespace ${connections.namespace}) for workflow and activity tasks`,
      );
    } finally {
      worker.shutdown();
      await running;
      removeHealthFile();
    }
    expect(existsSync(file)).toBe(false);
    expect(await checkWorkerHealth(file, connection)).toEqual({
      healthy: false,
      reason: `no worker health file at ${file}: is a worker running here with this health file?`,
    });
  });

  it('finds a worker the server does not list polling unhealthy', async () => {
    const file = healthFile('not-polling', {});
    const { taskQueue, identity } = readHealthFile(file);
    expect(await checkWorkerHealth(file, connection)).toEqual({
      healthy: false,
      reason: `the server lists no recent workflow-task poller ${identity} on task queue ${taskQueue} (namespace ${connections.namespace})`,
    });
  });

  it('finds a gone, hung or stopping worker unhealthy without asking the server', async () => {
    const unreachable = { ...connection, address: '127.0.0.1:1' };
    const gone = healthFile('gone', { pid: 2 ** 22 + 1 });
    expect(await checkWorkerHealth(gone, unreachable)).toEqual({
      healthy: false,
      reason: `the worker process ${2 ** 22 + 1} is gone`,
    });
    const hung = healthFile('hung', { updatedAt: Date.now() - 60_000 });
    expect(await checkWorkerHealth(hung, unreachable)).toEqual({
      healthy: false,
      reason: "the worker's health file is 60 s old: the worker hangs",
    });
    const stopping = healthFile('stopping', { state: 'STOPPING' });
    expect(await checkWorkerHealth(stopping, unreachable)).toEqual({
      healthy: false,
      reason: 'the worker is STOPPING, not RUNNING',
    });
    writeFileSync(path.join(directory, 'other.json'), '{"hello":"world"}');
    expect(await checkWorkerHealth(path.join(directory, 'other.json'), unreachable)).toEqual({
      healthy: false,
      reason: `${path.join(directory, 'other.json')} is not a worker health file`,
    });
  });
});
