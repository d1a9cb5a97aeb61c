import { SimplePlugin } from '@temporalio/plugin';
import type { ClientOptions, ClientPlugin, ConnectionPlugin } from '@temporalio/client';
import type { DataConverter, PayloadCodec } from '@temporalio/common';
import { Runtime } from '@temporalio/worker';
import type {
  BundleOptions,
  BundlerPlugin,
  NativeConnection,
  NativeConnectionPlugin,
  ReplayWorkerOptions,
  Worker,
  WorkerOptions,
  WorkerPlugin,
} from '@temporalio/worker';
import {
  createChildSessionActivities,
  createLiveTextFeed,
  createModelTextFeed,
  createSessionActivities,
} from '../../activities';
import { compactionActivityInterceptors } from '../compaction';
import { createLiveWorker, openLiveChannel } from '../live';
import type { LiveChannel, LiveWorker } from '../live';
import type { LanguageModelV4 } from '../models';
import { createExternalStorage, openContentStore } from '../store';
import type { ContentStore } from '../store';
import { ToolRegistry } from '../tools';
import { workerTracingOptions } from '../tracing';
import { checkNamespaceSearchAttributes } from './check-namespace-search-attributes';
import { refuseActivityNameClashes, refuseReplacedActivities } from './activity-name-clashes';
import { joinUserWorkflows } from './join-user-workflows';
import { tracingWorkflowInterceptorsModule } from './bundle-traced-session-workflows';
import type { ToolrailPluginOptions } from './toolrail-plugin-options';
import { ToolrailPluginError } from './toolrail-plugin-error';
import {
  compactionInterceptorsPath,
  publishLiveInterceptorsPath,
  sharedModulesPath,
  unreadableResultInterceptorsPath,
  workflowsPath,
} from './workflows-path';

/** The plugin's name, as Temporal lists plugins. */
const pluginName = 'toolrail';

/**
 * Cancellations reach a running tool through its heartbeats: a short throttle lets an interrupt
 * stop it within about a second.
 */
const heartbeatThrottle = '500 milliseconds';

/**
 * toolrail as a Temporal plugin, on `@temporalio/plugin`'s `SimplePlugin`: on a worker it adds the
 * session workflow to the worker's own workflows (one bundle), toolrail's activities to the
 * worker's, its External Storage (unless the worker has its own) and, with `tracing`, its
 * interceptors; on a client (or a connection, which passes it to its clients), the External
 * Storage. It composes with the worker's data converter, payload codecs, interceptors and other
 * plugins, in any order: it appends, never replaces. Create it with {@link toolrailPlugin}.
 */
export class ToolrailPlugin
  implements WorkerPlugin, ClientPlugin, BundlerPlugin, ConnectionPlugin, NativeConnectionPlugin
{
  /** The plugin's name, as Temporal lists plugins. */
  readonly name = pluginName;
  /** Where the sessions' conversations live (what `contentStore` named, opened). */
  readonly contentStore: ContentStore;
  readonly #settings: ToolrailPluginOptions;
  /** What composes like any plugin's options (data converter, interceptors), and the worker's run. */
  readonly #simple: SimplePlugin;
  readonly #registry: ToolRegistry;
  readonly #tracing: ReturnType<typeof workerTracingOptions> | undefined;
  /** The payload codecs of each worker configured, by its namespace and task queue: filled once the worker runs. */
  readonly #codecs = new Map<string, PayloadCodec[]>();
  /** The activities of each worker configured, by its namespace and task queue. */
  readonly #activities = new Map<string, Record<string, unknown>>();
  /** Workers configured without a connection (Worker.create makes its own): their namespace is checked as they run. */
  readonly #unchecked = new Set<string>();
  /** The live channel (`live`), when there is one. */
  readonly #channel: LiveChannel | undefined;
  /** Whether the plugin opened the channel (from a spec), and so closes it once its last worker stops. */
  readonly #ownsChannel: boolean;
  /** Each configured worker's part of the live channel, by its namespace and task queue. */
  readonly #live = new Map<string, LiveWorker>();
  /** Workers of this plugin running now: the channel it opened closes with the last. */
  #running = 0;

  constructor(options: ToolrailPluginOptions = {}) {
    const store =
      typeof options.contentStore === 'object' ? options.contentStore : openContentStore(options.contentStore);
    // Payloads over 256 KiB travel as claims on the content store, unless the worker or client has an
    // External Storage. Made at once: an install that cannot write a claim is refused here.
    const externalStorage = createExternalStorage(store);
    const tracing = options.tracing ? workerTracingOptions(options.tracing) : undefined;
    const opened = typeof options.live === 'object' ? undefined : openLiveChannel(options.live, { onError: warnLive });
    this.#channel = typeof options.live === 'object' ? options.live : opened;
    this.#ownsChannel = opened !== undefined;
    // Every bundle has the interceptors that end a call whose result claim cannot be read, those
    // that hand each task's feed events to the live channel (where there is one) and, innermost,
    // those that carry a session's activity payloads compact (the activities' too).
    const workflowModules = [
      unreadableResultInterceptorsPath,
      ...(this.#channel ? [publishLiveInterceptorsPath] : []),
      ...(tracing ? [tracingWorkflowInterceptorsModule] : []),
      compactionInterceptorsPath,
    ];
    const activity = [...(tracing?.interceptors.activity ?? []), compactionActivityInterceptors];
    this.#simple = new SimplePlugin({
      name: pluginName,
      dataConverter: (existing: DataConverter | undefined) =>
        existing?.externalStorage ? existing : { ...existing, externalStorage },
      workerInterceptors: { ...tracing?.interceptors, activity, workflowModules },
      ...(tracing ? { clientInterceptors: tracing.interceptors.client ?? {} } : {}),
    });
    this.contentStore = store;
    this.#settings = options;
    this.#registry = options.tools instanceof ToolRegistry ? options.tools : new ToolRegistry(options.tools ?? []);
    this.#tracing = tracing;
  }

  /** Whether the plugin has a live channel (`live`, or `TOOLRAIL_LIVE`). */
  get hasLiveChannel(): boolean {
    return this.#channel !== undefined;
  }

  /** Whether `plugin` is toolrail's (of any copy of the package). */
  static isToolrailPlugin(plugin: { readonly name: string }): boolean {
    return plugin.name === pluginName;
  }

  configureClient(options: ClientOptions): ClientOptions {
    refuseTwice('client', (options as { plugins?: readonly { name: string }[] }).plugins);
    return this.#simple.configureClient(options);
  }

  async configureWorker(options: WorkerOptions): Promise<WorkerOptions> {
    refuseTwice('worker', options.plugins);
    const namespace = options.namespace ?? 'default';
    const key = workerKey(namespace, options.taskQueue);
    if (options.connection) await this.#checkSearchAttributes(options.connection, namespace);
    else this.#unchecked.add(key);
    Runtime.instance().logger.info(
      `toolrail on task queue ${options.taskQueue}: content store ${this.contentStore.description}`,
    );
    const live = this.#liveWorker(options.connection, namespace);
    this.#live.set(key, live);
    const payloadCodecs: PayloadCodec[] = [...(options.dataConverter?.payloadCodecs ?? [])];
    const activities = this.#createActivities({ namespace, payloadCodecs, live });
    refuseActivityNameClashes({
      existing: Object.keys(options.activities ?? {}),
      toolrail: Object.keys(activities),
      tools: this.#registry.list().map((tool) => tool.name),
    });
    this.#codecs.set(key, payloadCodecs);
    this.#activities.set(key, activities);
    const configured = this.#simple.configureWorker(withSessionWorkflows(options));
    // Without a live channel, cancellations reach a running tool only through its heartbeats.
    const shortThrottle = this.#channel === undefined;
    return {
      ...configured,
      activities: { ...configured.activities, ...activities },
      sinks: { ...configured.sinks, ...this.#tracing?.sinks, ...live.sinks },
      ...(shortThrottle && configured.maxHeartbeatThrottleInterval === undefined
        ? { maxHeartbeatThrottleInterval: heartbeatThrottle }
        : {}),
      ...(shortThrottle && configured.defaultHeartbeatThrottleInterval === undefined
        ? { defaultHeartbeatThrottleInterval: heartbeatThrottle }
        : {}),
    };
  }

  configureReplayWorker(options: ReplayWorkerOptions): ReplayWorkerOptions {
    refuseTwice('replay worker', options.plugins);
    const configured = this.#simple.configureReplayWorker(withSessionWorkflows(options));
    // A replay calls no sink; they are registered so that none is unknown.
    const live = createLiveWorker({ channel: undefined, connection: undefined, namespace: '' });
    return { ...configured, sinks: { ...configured.sinks, ...this.#tracing?.sinks, ...live.sinks } };
  }

  configureBundler(options: BundleOptions): BundleOptions {
    const joined = joinUserWorkflows(this.#simple.configureBundler(options));
    // toolrail's pure modules are evaluated once per workflow thread, not in every session's run.
    return { ...joined, preloadModules: [...(joined.preloadModules ?? []), sharedModulesPath] };
  }

  async runWorker(worker: Worker, next: (w: Worker) => Promise<void>): Promise<void> {
    const { namespace, taskQueue, activities, loadedDataConverter } = worker.options;
    const key = workerKey(namespace, taskQueue);
    try {
      if (this.#unchecked.delete(key) && worker.connection)
        await this.#checkSearchAttributes(worker.connection, namespace);
      const ours = this.#activities.get(key);
      if (ours) refuseReplacedActivities({ ours, registered: activities });
    } catch (error) {
      // Refused: the worker is stopped as it starts (so its connection can be closed), and `run()` rejects.
      let settled = false;
      const stopped = this.#simple.runWorker(worker, next).finally(() => (settled = true));
      // A later plugin's runWorker may start the worker a few ticks later.
      while (worker.getState() === 'INITIALIZED' && !settled) await new Promise((resolve) => setImmediate(resolve));
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await stopped.catch(() => undefined);
      throw error;
    }
    // What the activities write to the content store is encoded by the worker's codecs, plugins' included.
    const codecs = this.#codecs.get(key);
    codecs?.splice(0, codecs.length, ...loadedDataConverter.payloadCodecs);
    const live = this.#live.get(key)?.plugin;
    this.#running += 1;
    try {
      return await this.#simple.runWorker(worker, (running) =>
        live?.runWorker ? live.runWorker(running, next) : next(running),
      );
    } finally {
      this.#running -= 1;
      if (this.#running === 0 && this.#ownsChannel) await this.#channel?.close();
    }
  }

  /**
   * A worker's part of the live channel: no-op sinks without a channel; with one, its relay reads
   * histories through `connection`.
   */
  #liveWorker(connection: NativeConnection | undefined, namespace: string): LiveWorker {
    if (this.#channel !== undefined && connection === undefined)
      throw new ToolrailPluginError({
        code: 'LIVE_NEEDS_CONNECTION',
        message:
          "the live channel reads the sessions' histories through the worker's connection: give Worker.create a `connection`",
      });
    if (this.#channel !== undefined)
      Runtime.instance().logger.info(`toolrail: live channel ${this.#channel.description}`);
    return createLiveWorker({ channel: this.#channel, connection, namespace, onError: warnLive });
  }

  #checkSearchAttributes(connection: NativeConnection, namespace: string): Promise<void> {
    return checkNamespaceSearchAttributes({
      connection,
      namespace,
      mode: this.#settings.searchAttributes ?? 'require',
    });
  }

  #createActivities({
    namespace,
    payloadCodecs,
    live,
  }: {
    namespace: string;
    payloadCodecs: PayloadCodec[];
    live: LiveWorker;
  }): Record<string, unknown> {
    const options = this.#settings;
    const scriptedModels =
      options.scriptedModels instanceof Map
        ? options.scriptedModels
        : new Map(Object.entries((options.scriptedModels ?? {}) as Record<string, LanguageModelV4>));
    const store = this.contentStore;
    return {
      ...createSessionActivities({
        registry: this.#registry,
        scriptedModels,
        store,
        payloadCodecs,
        namespace,
        ...(options.models ? { models: options.models } : {}),
        ...(options.modelRegistry ? { modelRegistry: options.modelRegistry } : {}),
        ...(options.env ? { env: options.env } : {}),
        ...(options.hooks ? { hooks: options.hooks } : {}),
        ...(options.onModelTextDelta ? { onModelTextDelta: options.onModelTextDelta } : {}),
        ...(this.#channel !== undefined
          ? { textFeed: createLiveTextFeed(this.#channel, namespace), ...(live.calls ? { liveCalls: live.calls } : {}) }
          : options.feedText === false
            ? {}
            : { textFeed: createModelTextFeed(options.feedText ?? {}) }),
        ...(options.toolAbortGraceMs === undefined ? {} : { toolAbortGraceMs: options.toolAbortGraceMs }),
        ...(options.resultOffloadBytes === undefined ? {} : { resultOffloadBytes: options.resultOffloadBytes }),
      }),
      ...createChildSessionActivities({ store, payloadCodecs, namespace }),
    };
  }
}

/**
 * toolrail as a Temporal plugin, for `Worker.create({ plugins })` (and `NativeConnection`,
 * `Client`, `Connection`, `bundleWorkflowCode`): one line adds agent sessions to a worker that keeps
 * its own workflows, activities, data converter, codecs, interceptors and other plugins. Give the
 * same plugin (or one with the same `contentStore`) to the clients that start sessions, so their
 * big payloads travel as claims on the same store.
 */
export function toolrailPlugin(options: ToolrailPluginOptions = {}): ToolrailPlugin {
  return new ToolrailPlugin(options);
}

/**
 * Worker options that run toolrail's workflows: the worker's own `workflowsPath` (joined at
 * bundling), or toolrail's alone.
 */
function withSessionWorkflows<T extends Pick<WorkerOptions, 'workflowsPath' | 'workflowBundle'>>(options: T): T {
  if (options.workflowsPath !== undefined || options.workflowBundle !== undefined) return options;
  return { ...options, workflowsPath };
}

/** Refuses a list of plugins that holds toolrail's more than once. */
function refuseTwice(where: string, plugins: readonly { readonly name: string }[] | undefined): void {
  const count = (plugins ?? []).filter((plugin) => ToolrailPlugin.isToolrailPlugin(plugin)).length;
  if (count <= 1) return;
  throw new ToolrailPluginError({
    code: 'PLUGIN_CONFIGURED_TWICE',
    message: `toolrail's plugin is configured ${count} times on this ${where} (its plugins, its connection's included): give it once, either to the ${where} or to its connection`,
  });
}

/** A problem the live channel works around, in the worker's log. */
function warnLive(error: Error): void {
  Runtime.instance().logger.warn(`[toolrail] live channel: ${error.message}`);
}

function workerKey(namespace: string | undefined, taskQueue: string): string {
  return `${namespace ?? 'default'}\u0000${taskQueue}`;
}
