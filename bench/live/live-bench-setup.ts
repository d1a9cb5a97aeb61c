import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker, bundleWorkflowCode } from '@temporalio/worker';
import { z } from 'zod';
import { ToolrailClient } from '../../src/client/toolrail-client';
import { startDevServer } from '../../src/devserver/start-dev-server';
import type { DevServer } from '../../src/devserver/start-dev-server';
import { LocalLiveChannel } from '../../src/live';
import type { LanguageModelV4 } from '../../src/models';
import type { ContentStore } from '../../src/store/content-store';
import { openContentStore } from '../../src/store/open-content-store';
import { defineTool } from '../../src/tools';
import { bundleTypeScriptAsPublished, bundlerLogger } from '../../src/worker/session-bundle-options';
import { createWorker } from '../../src/worker/create-worker';
import { createBareActivities } from '../scale/bare-activities';

/** The two sides every live bench figure compares. */
export type LiveVariant = 'without channel' | 'with channel';
export const liveVariants: readonly LiveVariant[] = ['without channel', 'with channel'];

/** What one side runs on: its client, the task queue its worker serves. */
export interface LiveSide {
  toolrail: ToolrailClient;
  taskQueue: string;
}

/** The bench's server, workers and clients; models are registered by name before the workers start. */
export interface LiveBench {
  server: DevServer;
  client: Client;
  sides: Record<LiveVariant, LiveSide>;
  /** The task queue of the bare workflow's worker. */
  bareTaskQueue: string;
  /** The server's metrics (`service_requests` by operation). */
  metricsUrl: string;
}

/**
 * A dev server of its own with a toolrail worker per side (one without a live channel, one on the
 * local channel), a worker of the bare workflow, and a client per side (the channel's on a channel of
 * its own, as a separate process has), all in this process; runs `body`, then stops everything.
 * `models(variant)` gives each side's models by id; every side has the tools `work` (a read-only
 * call of `ms` milliseconds) and `stop_me` (the same, stopped by an interrupt).
 */
export async function withLiveBench<T>(
  models: (variant: LiveVariant) => Record<string, LanguageModelV4>,
  body: (bench: LiveBench) => Promise<T>,
): Promise<T> {
  try {
    Runtime.install({ logger: new DefaultLogger('WARN') });
  } catch {
    // Another bench section installed the runtime already.
  }
  const directory = mkdtempSync(path.join(os.tmpdir(), 'toolrail-bench-live-'));
  const server = await startDevServer({ ui: false });
  const connection = await Connection.connect({ address: server.address });
  const nativeConnection = await NativeConnection.connect({ address: server.address });
  const store = openContentStore(path.join(directory, 'content'));
  const workerChannel = new LocalLiveChannel({ directory: path.join(directory, 'live') });
  const clientChannel = new LocalLiveChannel({ directory: path.join(directory, 'live') });
  const workers: Worker[] = [];
  try {
    const client = new Client({ connection, namespace: server.namespace });
    const sides = {} as Record<LiveVariant, LiveSide>;
    for (const variant of liveVariants) {
      const taskQueue = variant === 'with channel' ? 'live-on' : 'live-off';
      const live = variant === 'with channel';
      workers.push(
        await createWorker({
          connection: nativeConnection,
          namespace: server.namespace,
          taskQueue,
          tools: benchTools(),
          models: Object.fromEntries(
            Object.entries(models(variant)).map(([id, model]) => [id, { model, stream: true }]),
          ),
          contentStore: store,
          live: live ? workerChannel : 'off',
        }),
      );
      sides[variant] = {
        toolrail: new ToolrailClient({
          client,
          taskQueue,
          contentStore: store,
          ...(live ? { live: clientChannel } : {}),
        }),
        taskQueue,
      };
    }
    workers.push(await bareWorker(nativeConnection, server.namespace, store));
    const running = Promise.all(workers.map((worker) => worker.run()));
    try {
      return await body({ server, client, sides, bareTaskQueue: 'live-bare', metricsUrl: server.metricsUrl ?? '' });
    } finally {
      for (const worker of workers) worker.shutdown();
      await running;
    }
  } finally {
    await clientChannel.close();
    await workerChannel.close();
    await store.close();
    await nativeConnection.close();
    await connection.close();
    await server.stop();
    rmSync(directory, { recursive: true, force: true });
  }
}

/** When each call of `stop_me` saw its abort signal fire (epoch ms), by session. */
export const abortsSeen = new Map<string, number>();

/** The tools of the bench's sessions. */
function benchTools() {
  const work = (name: string, interruptBehavior: 'block' | 'cancel') =>
    defineTool({
      name,
      description: 'Works for `ms` milliseconds.',
      inputSchema: z.object({ ms: z.number().int() }),
      concurrency: 'READ_ONLY',
      interruptBehavior,
      execute: async ({ ms }, { signal, sessionId }) => {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, ms);
          signal.addEventListener(
            'abort',
            () => {
              abortsSeen.set(sessionId, Date.now());
              clearTimeout(timer);
              reject(signal.reason as Error);
            },
            { once: true },
          );
        });
        return 'done';
      },
    });
  return [work('work', 'block'), work('stop_me', 'cancel')];
}

/** The worker of the bare workflow (`bench/scale/bare-workflows.ts`): a session's activities with nothing around them. */
async function bareWorker(connection: NativeConnection, namespace: string, store: ContentStore): Promise<Worker> {
  return Worker.create({
    connection,
    namespace,
    taskQueue: 'live-bare',
    workflowBundle: await bundleWorkflowCode({
      workflowsPath: require.resolve('../scale/bare-workflows'),
      logger: bundlerLogger,
      webpackConfigHook: bundleTypeScriptAsPublished,
    }),
    activities: createBareActivities(store),
  });
}
