import { Worker } from '@temporalio/worker';
import type { NativeConnection, WorkerOptions, WorkflowBundle } from '@temporalio/worker';
import type { AnyTool, ToolRegistry } from '../tools';
import { bundleSessionWorkflows } from './bundle-session-workflows';
import type { SessionBundleOptions } from './session-bundle-options';
import { bundleTracedSessionWorkflows } from './bundle-traced-session-workflows';
import { toolrailPlugin } from './toolrail-plugin';
import type { ToolrailPluginOptions } from './toolrail-plugin-options';

/** Options of {@link createWorker}: the plugin's, and the worker's own. */
export interface CreateWorkerOptions extends ToolrailPluginOptions {
  connection: NativeConnection;
  /** Defaults to `default`. */
  namespace?: string;
  /** Defaults to `toolrail`. */
  taskQueue?: string;
  /** The tools sessions on this worker may call (or a registry of them). */
  tools: readonly AnyTool[] | ToolRegistry;
  /**
   * Stack traces in the sessions' workflow code. Defaults to `false`: the Temporal SDK captures a
   * stack for every promise a workflow creates (for its `__stack_trace` query, the Web UI's Stack
   * Trace tab), about a fifth of a turn's workflow-thread CPU; without them that tab shows no
   * frames for a session, and an error made in workflow code carries its message without frames.
   * What a session waits for is in its status and current details either way. Turn them on to see
   * where a session's workflow code stands. Applies to the bundles toolrail makes (not to a
   * `workflowBundle` you pass) with the SDK's default `reuseV8Context`.
   */
  workflowStackTraces?: boolean;
  /**
   * Pre-bundled workflow code; by default toolrail's workflows are bundled once per process
   * (`bundleSessionWorkflows`, or `bundleTracedSessionWorkflows` with `tracing`), in a short-lived
   * child process so webpack's memory (about 300 MB) does not stay in the worker's.
   */
  workflowBundle?: WorkflowBundle;
  /**
   * Any other Temporal worker option (tuning, interceptors, identity, plugins). `dataConverter.payloadCodecs`
   * (e.g. an encryption codec) also encode everything the worker writes to the content store.
   */
  workerOptions?: Partial<Omit<WorkerOptions, 'connection' | 'namespace' | 'taskQueue' | 'activities'>>;
}

/**
 * Creates a Temporal worker that runs toolrail sessions with the given tools and models: the
 * shortcut for a new app, a worker of toolrail's workflows alone (bundled once per process) with
 * toolrail's plugin. To add sessions to a worker you have, give `Worker.create` the plugin
 * (`toolrailPlugin`) instead. Run it with `worker.run()` (until shutdown) or
 * `worker.runUntil(promise)`. Scale out by starting more workers on the same task queue.
 */
export async function createWorker({
  connection,
  namespace,
  taskQueue = 'toolrail',
  workflowStackTraces = false,
  workflowBundle,
  workerOptions,
  ...pluginOptions
}: CreateWorkerOptions): Promise<Worker> {
  // Made first: an install whose External Storage cannot write a claim is refused before bundling.
  const plugin = toolrailPlugin(pluginOptions);
  return Worker.create({
    connection,
    ...(namespace === undefined ? {} : { namespace }),
    taskQueue,
    workflowBundle:
      workflowBundle ??
      (await bundleFor(pluginOptions.tracing !== undefined, {
        stackTraces: workflowStackTraces,
        live: plugin.hasLiveChannel,
      })),
    ...workerOptions,
    plugins: [plugin, ...(workerOptions?.plugins ?? [])],
  });
}

/** Toolrail's workflow bundle for a worker: traced or not, with stack traces or not, live or not. */
function bundleFor(traced: boolean, options: SessionBundleOptions): Promise<WorkflowBundle> {
  return traced ? bundleTracedSessionWorkflows(options) : bundleSessionWorkflows(options);
}
