import { fork } from 'node:child_process';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import type { ScaleWorkerRequest, ScaleWorkerStats } from './scale-worker';

type ScaleWorkerRequestBody = ScaleWorkerRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;

/** A worker process of the scale benchmark, as the benchmark drives it. */
export interface ScaleWorkerProcess {
  readonly pid: number;
  /** Its CPU time and memory now. */
  stats(): Promise<ScaleWorkerStats>;
  /** Writes a V8 heap snapshot of its main thread to `path`. */
  heapSnapshot(path: string): Promise<void>;
  /** Shuts the worker down and waits for the process to exit. */
  stop(): Promise<void>;
}

/** Options of {@link startScaleWorker}. */
export interface ScaleWorkerOptions {
  variant: 'toolrail' | 'bare';
  /** Another checkout of toolrail (with its `node_modules`) whose worker runs instead of this one's. */
  checkout?: string;
  address: string;
  namespace: string;
  taskQueue: string;
  storeDirectory: string;
  /** Session lengths the toolrail worker has scripted models for. */
  turns: readonly number[];
  /** Run the workflows on the worker's main thread (for heap snapshots). */
  debugMode?: boolean;
  /** Extra Node options, e.g. `--cpu-prof`. */
  execArgv?: readonly string[];
}

/** Starts a worker process and resolves once its worker is about to poll. */
export async function startScaleWorker(options: ScaleWorkerOptions): Promise<ScaleWorkerProcess> {
  const script = options.checkout
    ? path.join(options.checkout, 'bench', 'scale', 'scale-worker.ts')
    : require.resolve('./scale-worker');
  const child: ChildProcess = fork(script, [], {
    ...(options.checkout ? { cwd: options.checkout } : {}),
    execArgv: ['--import', 'tsx', ...(options.execArgv ?? [])],
    env: {
      ...process.env,
      SCALE_VARIANT: options.variant,
      SCALE_ADDRESS: options.address,
      SCALE_NAMESPACE: options.namespace,
      SCALE_TASK_QUEUE: options.taskQueue,
      SCALE_STORE_DIR: options.storeDirectory,
      SCALE_TURNS: options.turns.join(','),
      SCALE_DEBUG_MODE: options.debugMode ? '1' : '0',
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const waiting = new Map<number, { resolve: (stats: ScaleWorkerStats) => void; reject: (error: Error) => void }>();
  child.once('exit', (code) => {
    for (const { reject } of waiting.values())
      reject(new Error(`the ${options.variant} worker exited with code ${code}`));
    waiting.clear();
  });
  let ready: () => void = () => undefined;
  const readyPromise = new Promise<void>((resolve, reject) => {
    ready = resolve;
    child.once('exit', (code) => reject(new Error(`the ${options.variant} worker exited with code ${code}`)));
  });
  child.on('message', (stats: ScaleWorkerStats) => {
    if (stats.id === 0) return ready();
    waiting.get(stats.id)?.resolve(stats);
    waiting.delete(stats.id);
  });
  let sequence = 0;
  const ask = (request: ScaleWorkerRequestBody): Promise<ScaleWorkerStats> =>
    new Promise((resolve, reject) => {
      const id = (sequence += 1);
      waiting.set(id, { resolve, reject });
      child.send({ ...request, id });
    });
  await readyPromise;
  return {
    pid: child.pid ?? 0,
    stats: () => ask({ type: 'stats' }),
    heapSnapshot: async (path) => {
      await ask({ type: 'heap-snapshot', path });
    },
    async stop() {
      if (child.exitCode === null) child.send({ type: 'stop', id: -1 });
      await exited;
    },
  };
}
