/**
 * A worker process of the scale benchmark: the toolrail worker (`SCALE_VARIANT=toolrail`) or the bare
 * workflow's (`bare`), on the server at `SCALE_ADDRESS`. The benchmark asks it over IPC for its CPU
 * time and RSS (`stats`), for a heap snapshot (`heap-snapshot`, with `SCALE_DEBUG_MODE=1` the
 * workflows run on the main thread, so the snapshot holds them), and to stop (`stop`).
 */
import { writeHeapSnapshot } from 'node:v8';
import { DefaultLogger, NativeConnection, Runtime, Worker, bundleWorkflowCode } from '@temporalio/worker';
import { openContentStore } from '../../src/store/open-content-store';
import { bundleTypeScriptAsPublished, bundlerLogger } from '../../src/worker/session-bundle-options';
import { createWorker } from '../../src/worker/create-worker';
import { requiredEnv, runAsProcess } from '../../test/fixtures/worker-process';
import { createBareActivities } from './bare-activities';
import { createScaleModel, createScaleTool, scaleModelName } from './scale-tool';

/** A request from the benchmark. */
export type ScaleWorkerRequest =
  { type: 'stats'; id: number } | { type: 'heap-snapshot'; id: number; path: string } | { type: 'stop'; id: number };

/** What the worker answers: its CPU time (user + system, µs) and memory, or that it did what was asked. */
export interface ScaleWorkerStats {
  id: number;
  cpuMicros: number;
  rss: number;
  heapUsed: number;
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const variant = requiredEnv('SCALE_VARIANT');
  const connection = await NativeConnection.connect({ address: requiredEnv('SCALE_ADDRESS') });
  const store = openContentStore(requiredEnv('SCALE_STORE_DIR'));
  const namespace = requiredEnv('SCALE_NAMESPACE');
  const taskQueue = requiredEnv('SCALE_TASK_QUEUE');
  const debugMode = process.env['SCALE_DEBUG_MODE'] === '1';
  const worker =
    variant === 'toolrail'
      ? await createWorker({
          connection,
          namespace,
          taskQueue,
          tools: [createScaleTool()],
          scriptedModels: Object.fromEntries(
            requiredEnv('SCALE_TURNS')
              .split(',')
              .map((turns) => [scaleModelName(Number(turns)), createScaleModel(Number(turns))]),
          ),
          contentStore: store,
          workerOptions: { debugMode },
        })
      : await Worker.create({
          connection,
          namespace,
          taskQueue,
          workflowBundle: await bundleWorkflowCode({
            workflowsPath: require.resolve('./bare-workflows'),
            logger: bundlerLogger,
            webpackConfigHook: bundleTypeScriptAsPublished,
          }),
          activities: createBareActivities(store),
          debugMode,
        });
  process.on('message', (request: ScaleWorkerRequest) => {
    if (request.type === 'heap-snapshot') writeHeapSnapshot(request.path);
    if (request.type === 'stop') worker.shutdown();
    const cpu = process.cpuUsage();
    const memory = process.memoryUsage();
    const stats: ScaleWorkerStats = {
      id: request.id,
      cpuMicros: cpu.user + cpu.system,
      rss: memory.rss,
      heapUsed: memory.heapUsed,
    };
    process.send?.(stats);
  });
  process.send?.({ id: 0, cpuMicros: 0, rss: 0, heapUsed: 0 });
  await worker.run();
  await connection.close();
  await store.close();
}

runAsProcess(main);
