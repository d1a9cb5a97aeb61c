import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Worker } from '@temporalio/worker';

/** How often a running worker rewrites its health file, in ms. */
export const healthFileIntervalMs = 10_000;

/** What a worker's health file says: who it is, where it polls, its state, and when it last said so. */
export interface WorkerHealthRecord {
  pid: number;
  /** The worker's identity, as the server lists it among the task queue's pollers. */
  identity: string;
  namespace: string;
  taskQueue: string;
  /** The Temporal worker's state (`RUNNING` while it polls). */
  state: string;
  /** When the worker wrote this, in ms since the epoch. */
  updatedAt: number;
}

/**
 * Keeps `file` telling the worker's state: written now and every {@link healthFileIntervalMs}
 * (atomically, through a temporary file), removed when the returned function is called. The
 * interval does not keep the process alive.
 */
export function keepHealthFile(worker: Worker, file: string): () => void {
  mkdirSync(path.dirname(file), { recursive: true });
  const write = (): void => {
    const record: WorkerHealthRecord = {
      pid: process.pid,
      identity: worker.options.identity,
      namespace: worker.options.namespace,
      taskQueue: worker.options.taskQueue,
      state: worker.getState(),
      updatedAt: Date.now(),
    };
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(record)}\n`);
    renameSync(temporary, file);
  };
  write();
  const timer = setInterval(write, healthFileIntervalMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    rmSync(file, { force: true });
  };
}

/** The record in `file`; throws an error that names the file when it is missing or not a health record. */
export function readHealthFile(file: string): WorkerHealthRecord {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new Error(`no worker health file at ${file}: is a worker running here with this health file?`);
  }
  let record: Partial<WorkerHealthRecord>;
  try {
    record = JSON.parse(text) as Partial<WorkerHealthRecord>;
  } catch {
    throw new Error(`${file} is not a worker health file`);
  }
  if (
    typeof record.pid !== 'number' ||
    typeof record.identity !== 'string' ||
    typeof record.namespace !== 'string' ||
    typeof record.taskQueue !== 'string' ||
    typeof record.state !== 'string' ||
    typeof record.updatedAt !== 'number'
  ) {
    throw new Error(`${file} is not a worker health file`);
  }
  return record as WorkerHealthRecord;
}
