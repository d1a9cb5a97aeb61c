import { ToolrailClient } from '../../src/client/toolrail-client';
import type { ModelAdapter } from '../../src/models/model-adapter';
import type { AnyTool } from '../../src/tools/tool';
import type { ToolHooks } from '../../src/tools/lifecycle/tool-hooks';
import { createWorker } from '../../src/worker/create-worker';
import type { HarnessConnections } from '../harness/connect';
import { uniqueName } from '../harness/connect';

/** What a test gets while its worker runs. */
export interface SessionWorkerScope {
  client: ToolrailClient;
  taskQueue: string;
}

/** Options of {@link withSessionWorker}. */
export interface WithSessionWorkerOptions {
  connections: HarnessConnections;
  tools: readonly AnyTool[];
  scriptedModels?: Record<string, ModelAdapter>;
  hooks?: ToolHooks;
}

/** Runs `body` while a real toolrail worker (on a task queue of its own) serves the harness's server. */
export async function withSessionWorker<T>(
  { connections, tools, scriptedModels, hooks }: WithSessionWorkerOptions,
  body: (scope: SessionWorkerScope) => Promise<T>,
): Promise<T> {
  const taskQueue = uniqueName('sessions');
  const worker = await createWorker({
    connection: connections.nativeConnection,
    namespace: connections.namespace,
    taskQueue,
    tools,
    ...(scriptedModels ? { scriptedModels } : {}),
    ...(hooks ? { hooks } : {}),
  });
  const client = new ToolrailClient({ client: connections.client, taskQueue });
  return worker.runUntil(body({ client, taskQueue }));
}
