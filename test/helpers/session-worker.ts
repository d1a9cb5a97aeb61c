import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ToolrailClient } from '../../src/client/toolrail-client';
import type { LanguageModelV4, LanguageModelRegistry, WorkerModels } from '../../src/models';
import type { AnyTool } from '../../src/tools/tool';
import type { ToolRegistry } from '../../src/tools/tool-registry';
import type { ToolHooks } from '../../src/tools/lifecycle/tool-hooks';
import { createWorker } from '../../src/worker/create-worker';
import type { CreateWorkerOptions } from '../../src/worker/create-worker';
import type { ContentStore } from '../../src/store/content-store';
import { openContentStore } from '../../src/store/open-content-store';
import { createExternalStorage } from '../../src/store/content-storage-driver';
import { Client } from '@temporalio/client';
import type { HarnessConnections } from '../harness/connect';
import type { LiveChannel } from '../../src/live';
import { uniqueName } from '../harness/connect';

/** What a test gets while its worker runs. */
export interface SessionWorkerScope {
  client: ToolrailClient;
  taskQueue: string;
}

/** Options of {@link withSessionWorker}. */
export interface WithSessionWorkerOptions {
  connections: HarnessConnections;
  /** The worker's tools, or a registry (e.g. one MCP servers keep their tools in). */
  tools: readonly AnyTool[] | ToolRegistry;
  scriptedModels?: Record<string, LanguageModelV4>;
  models?: WorkerModels;
  modelRegistry?: LanguageModelRegistry;
  onModelTextDelta?: CreateWorkerOptions['onModelTextDelta'];
  /** OpenTelemetry tracing of the worker. */
  tracing?: CreateWorkerOptions['tracing'];
  hooks?: ToolHooks;
  /** Defaults to a directory store in a temporary directory of this test process. */
  contentStore?: ContentStore;
  /** Defaults to a new one: give a session's task queue to serve it again with a fresh worker. */
  taskQueue?: string;
  /** Stack traces in the workflow code (off by default, as in `createWorker`). */
  workflowStackTraces?: boolean;
  /** The worker's live channel (none by default). */
  workerLive?: LiveChannel;
  /** The client's live channel (none by default): the worker's, or another on the same directory or database. */
  clientLive?: LiveChannel;
}

let processDirectory: string | undefined;
let processStore: ContentStore | undefined;

/** The directory of this test process's embedded content store (for CLI processes: `TOOLRAIL_CONTENT_STORE`). */
export function testContentDirectory(): string {
  const directory = processDirectory ?? mkdtempSync(path.join(os.tmpdir(), 'toolrail-test-content-'));
  processDirectory = directory;
  return directory;
}

/** One embedded content store per test process, in a temporary directory. */
export function testContentStore(): ContentStore {
  const store = processStore ?? openContentStore(testContentDirectory());
  processStore = store;
  return store;
}

/** Closes this test file's embedded content store and removes its directory (the test setup runs it after each file). */
export async function removeTestContentStore(): Promise<void> {
  const [store, directory] = [processStore, processDirectory];
  processStore = undefined;
  processDirectory = undefined;
  await store?.close();
  if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
}

/** Runs `body` while a real toolrail worker (on a task queue of its own) serves the harness's server. */
export async function withSessionWorker<T>(
  {
    connections,
    tools,
    scriptedModels,
    models,
    modelRegistry,
    onModelTextDelta,
    tracing,
    hooks,
    contentStore = testContentStore(),
    taskQueue = uniqueName('sessions'),
    workflowStackTraces,
    workerLive,
    clientLive,
  }: WithSessionWorkerOptions,
  body: (scope: SessionWorkerScope) => Promise<T>,
): Promise<T> {
  const worker = await createWorker({
    connection: connections.nativeConnection,
    namespace: connections.namespace,
    taskQueue,
    tools,
    ...(scriptedModels ? { scriptedModels } : {}),
    ...(models ? { models } : {}),
    ...(modelRegistry ? { modelRegistry } : {}),
    ...(onModelTextDelta ? { onModelTextDelta } : {}),
    ...(tracing ? { tracing } : {}),
    ...(hooks ? { hooks } : {}),
    ...(workflowStackTraces === undefined ? {} : { workflowStackTraces }),
    ...(workerLive ? { live: workerLive } : {}),
    contentStore,
    // A worker that served the task queue before this one is given up on after 1 s (default 10 s).
    workerOptions: { stickyQueueScheduleToStartTimeout: 1_000 },
  });
  const temporalClient = new Client({
    connection: connections.client.connection,
    namespace: connections.namespace,
    dataConverter: { externalStorage: createExternalStorage(contentStore) },
  });
  const client = new ToolrailClient({
    client: temporalClient,
    taskQueue,
    contentStore,
    ...(clientLive ? { live: clientLive } : {}),
  });
  return worker.runUntil(body({ client, taskQueue }));
}
