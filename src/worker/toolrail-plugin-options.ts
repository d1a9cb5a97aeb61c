import type { ModelTextDelta } from '../../activities';
import type { LanguageModelRegistry, LanguageModelV4, WorkerModels } from '../models';
import type { ContentStore } from '../store';
import type { LiveChannel } from '../live';
import type { AnyTool, ToolHooks, ToolRegistry } from '../tools';
import type { TracingOptions } from '../tracing';

/**
 * What toolrail adds to a Temporal worker and client: the sessions' tools and models, where their
 * conversations live, and how they are traced. `toolrailPlugin` takes it, and `createWorker` takes
 * it with the worker's own settings.
 */
export interface ToolrailPluginOptions {
  /** The tools sessions on the worker may call (or a registry of them). Defaults to none (a client needs none). */
  tools?: readonly AnyTool[] | ToolRegistry;
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
   * its spec (`local`, `local:DIR`, a `postgres://` URL, `off`), opened by the plugin and closed when
   * its last worker stops. Defaults to `TOOLRAIL_LIVE`, else none. With one, each feed event goes to
   * the session's watchers once its workflow task is durable, streamed text as the model writes it
   * (no `modelText` signal: `feedText` does not apply), and a session's cancellations (an interrupt, a
   * failing sibling) abort the calls they name at once on whichever worker runs them; activities then
   * heartbeat at Temporal's default throttle (80% of their heartbeat timeout) instead of every 500 ms,
   * Temporal's cancellation being the fallback. Every worker and client of a deployment names the
   * same channel.
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
   * and tool calls, sent to `tracing.spanProcessor`. Leave it out on a worker that has Temporal's
   * `OpenTelemetryPlugin`: the sessions' spans then go to that plugin's exporter.
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
   * What a worker does when its namespace lacks one of toolrail's search attributes (or has one of
   * another type): `require` (the default) refuses to start, naming them and the command that
   * registers them; `warn` logs that once and starts (every session's workflow task then fails
   * until they are registered).
   */
  searchAttributes?: 'require' | 'warn';
}
