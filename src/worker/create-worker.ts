import { Runtime, Worker } from '@temporalio/worker';
import type { NativeConnection, WorkerOptions, WorkflowBundle } from '@temporalio/worker';
import type { PayloadCodec } from '@temporalio/common';
import { createLiveTextFeed, createModelTextFeed, createSessionActivities } from '../../activities';
import type { ModelTextDelta } from '../../activities';
import type { LanguageModelRegistry, LanguageModelV4, WorkerModels } from '../models';
import type { ToolHooks, AnyTool } from '../tools';
import { ToolRegistry } from '../tools';
import { bundleSessionWorkflows } from './bundle-session-workflows';
import type { ContentStore } from '../store';
import { openContentStore, createExternalStorage } from '../store';
import { bundleTracedSessionWorkflows } from './bundle-traced-workflows';
import type { TracingOptions } from '../tracing';
import { workerTracingOptions } from '../tracing';
import { createLiveWorker, openLiveChannel } from '../live';
import type { LiveChannel } from '../live';

/** Options of {@link createWorker}. */
export interface CreateWorkerOptions {
  connection: NativeConnection;
  /** Defaults to `default`. */
  namespace?: string;
  /** Defaults to `toolrail`. */
  taskQueue?: string;
  /** The tools sessions on this worker may call (or a registry of them). */
  tools: readonly AnyTool[] | ToolRegistry;
  /**
   * Language models (any AI SDK `LanguageModelV4`) by the id sessions name: `{ fast:
   * openai('gpt-5.4-mini') }` serves `model: { id: 'fast' }`. An entry may carry defaults:
   * `{ model, stream?, contextBudgetBytes? }`.
   */
  models?: WorkerModels;
  /**
   * Resolves ids not in `models`: the AI SDK's `createProviderRegistry({ openai, anthropic })`
   * (ids such as `openai:gpt-5.4-mini`), or a single provider.
   */
  modelRegistry?: LanguageModelRegistry;
  /** Scripted models by name, for sessions with `model: { provider: 'scripted', model: NAME }`. */
  scriptedModels?: ReadonlyMap<string, LanguageModelV4> | Readonly<Record<string, LanguageModelV4>>;
  /** Where the built-in providers (`model: { provider, model }`) read API keys. Defaults to `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  hooks?: ToolHooks;
  /**
   * Called with the model's text as it arrives: each delta of a streamed response (`stream: true`),
   * or the whole text of one that is not. For your own live views; it must not throw or block (a
   * throw is logged and ignored).
   */
  onModelTextDelta?: (event: ModelTextDelta) => void;
  /**
   * Streamed model text in the sessions' live feeds (`text_delta` events): batched into one signal
   * to the session per `intervalMs` of streaming (default 500), each one event and one workflow
   * task in its history; text that arrives whole at the end of a call sends none. `false` turns it off.
   */
  feedText?: false | { intervalMs?: number };
  /**
   * The live channel beside the sessions' durable feeds (see `openLiveChannel`): a `LiveChannel`, or
   * its spec (`local`, `local:DIR`, a `postgres://` URL, `off`), opened for the worker and closed when
   * it stops. Defaults to `TOOLRAIL_LIVE`, else none. With one, each feed event goes to the session's
   * watchers once its workflow task is durable, streamed text as the model writes it (no `modelText`
   * signal: `feedText` does not apply), and a session's cancellations (an interrupt, a failing
   * sibling) abort the calls they name at once on whichever worker runs them; activities then
   * heartbeat at Temporal's default throttle (80% of their heartbeat timeout) instead of every 500 ms,
   * Temporal's cancellation being the fallback. Every worker and client of a deployment names the same channel.
   */
  live?: LiveChannel | string;
  /**
   * Where sessions' conversations live: a `ContentStore`, or a spec for `openContentStore` (a
   * directory path or a `postgres://` URL). Defaults to `TOOLRAIL_CONTENT_STORE`, else the embedded
   * directory store, which is for the workers of one machine. Every worker (and client) of a session
   * must reach the same store: a session records its store's identity when it starts, and a worker
   * with another store refuses its activities (so a worker with the right one takes them). The
   * worker logs which store it uses when it is created.
   */
  contentStore?: ContentStore | string;
  /**
   * OpenTelemetry tracing of sessions (off by default): spans of the session, its turns, model calls
   * and tool calls, sent to `tracing.spanProcessor`. A `workflowBundle` given with it must bundle
   * the interceptors too (`bundleTracedSessionWorkflows()`).
   */
  tracing?: TracingOptions;
  /**
   * How long a tool may take to settle after an interrupt aborted it before it is reported as still
   * running, in milliseconds. Defaults to 5 000. Its late end is then recorded in the transcript.
   */
  toolAbortGraceMs?: number;
  /**
   * Tool results whose text is larger than this, in UTF-8 bytes, are offloaded to the content store
   * (the model reads a preview and the key), whatever the tool's `maxResultSizeChars`. Defaults to
   * 262 144 (256 KiB).
   */
  resultOffloadBytes?: number;
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
   * (`bundleSessionWorkflows`, or `bundleTracedSessionWorkflows` with `tracing`).
   */
  workflowBundle?: WorkflowBundle;
  /**
   * Any other Temporal worker option (tuning, interceptors, identity). `dataConverter.payloadCodecs`
   * (e.g. an encryption codec) also encode everything the worker writes to the content store.
   */
  workerOptions?: Partial<Omit<WorkerOptions, 'connection' | 'namespace' | 'taskQueue' | 'activities'>>;
}

/**
 * Creates a Temporal worker that runs toolrail sessions with the given tools and models. Run it
 * with `worker.run()` (until shutdown) or `worker.runUntil(promise)`. Scale out by starting more
 * workers on the same task queue.
 */
export async function createWorker(options: CreateWorkerOptions): Promise<Worker> {
  const registry = options.tools instanceof ToolRegistry ? options.tools : new ToolRegistry(options.tools);
  const scriptedModels =
    options.scriptedModels instanceof Map
      ? options.scriptedModels
      : new Map(Object.entries((options.scriptedModels ?? {}) as Record<string, LanguageModelV4>));
  const store =
    typeof options.contentStore === 'object' ? options.contentStore : openContentStore(options.contentStore);
  // Payloads over 256 KiB (a big first message, a big user message) travel as claims on the content store.
  // Made first: an install that cannot write a claim is refused before the worker bundles or connects.
  const externalStorage = createExternalStorage(store);
  const namespace = options.namespace ?? 'default';
  Runtime.instance().logger.info(
    `toolrail worker on task queue ${options.taskQueue ?? 'toolrail'}: content store ${store.description}`,
  );
  const opened = typeof options.live === 'object' ? undefined : openLiveChannel(options.live, { onError: warn });
  const channel = typeof options.live === 'object' ? options.live : opened;
  const live = createLiveWorker({
    channel,
    connection: options.connection,
    namespace,
    closeChannel: opened !== undefined,
    onError: warn,
  });
  if (channel !== undefined) Runtime.instance().logger.info(`toolrail worker: live channel ${channel.description}`);
  // The worker's own payload codecs (its data converter's, plugins' included) also encode what the
  // activities write to the content store; filled in once the worker has loaded them, before any task runs.
  const payloadCodecs: PayloadCodec[] = [];
  const activities = {
    ...createSessionActivities({
      registry,
      scriptedModels,
      store,
      payloadCodecs,
      namespace,
      ...(options.models ? { models: options.models } : {}),
      ...(options.modelRegistry ? { modelRegistry: options.modelRegistry } : {}),
      ...(options.env ? { env: options.env } : {}),
      ...(options.hooks ? { hooks: options.hooks } : {}),
      ...(options.onModelTextDelta ? { onModelTextDelta: options.onModelTextDelta } : {}),
      ...(channel !== undefined
        ? { textFeed: createLiveTextFeed(channel, namespace), ...(live.calls ? { liveCalls: live.calls } : {}) }
        : options.feedText === false
          ? {}
          : { textFeed: createModelTextFeed(options.feedText ?? {}) }),
      ...(options.toolAbortGraceMs === undefined ? {} : { toolAbortGraceMs: options.toolAbortGraceMs }),
      ...(options.resultOffloadBytes === undefined ? {} : { resultOffloadBytes: options.resultOffloadBytes }),
    }),
  };
  const tracing = options.tracing ? workerTracingOptions(options.tracing) : undefined;
  const worker = await Worker.create({
    connection: options.connection,
    namespace,
    taskQueue: options.taskQueue ?? 'toolrail',
    workflowBundle: options.workflowBundle ?? (await bundleFor(Boolean(tracing), options.workflowStackTraces ?? false)),
    activities,
    ...tracing,
    // Cancellations reach an activity through its heartbeats (the activity's own, every second, and
    // a tool's): without a live channel, keep the throttle short so they are not held back, and an
    // interrupt stops a running tool within about a second. With one, cancellations come through it
    // at once and Temporal's default throttle keeps heartbeats (billable actions) few.
    ...(channel === undefined
      ? { maxHeartbeatThrottleInterval: '500 milliseconds', defaultHeartbeatThrottleInterval: '500 milliseconds' }
      : {}),
    ...options.workerOptions,
    sinks: { ...tracing?.sinks, ...options.workerOptions?.sinks, ...live.sinks },
    plugins: [...(options.workerOptions?.plugins ?? []), ...(live.plugin ? [live.plugin] : [])],
    // Payloads over 256 KiB (a big first message, a big user message) travel as claims on the content store.
    // Claims hold payloads the codecs already encoded: the driver stores them as they are.
    dataConverter: { ...options.workerOptions?.dataConverter, externalStorage },
  });
  payloadCodecs.push(...worker.options.loadedDataConverter.payloadCodecs);
  return worker;
}

/** A problem the live channel works around, in the worker's log. */
function warn(error: Error): void {
  Runtime.instance().logger.warn(`[toolrail] live channel: ${error.message}`);
}

/** Toolrail's workflow bundle for a worker: traced or not, with stack traces or not. */
function bundleFor(traced: boolean, stackTraces: boolean): Promise<WorkflowBundle> {
  return traced ? bundleTracedSessionWorkflows({ stackTraces }) : bundleSessionWorkflows({ stackTraces });
}
