import { ApplicationFailure, Context } from '@temporalio/activity';
import type { ToolCatalog } from '../src/dispatch/tool-catalog';
import { TOOL_SEARCH_NAME } from '../src/dispatch/tool-search-name';
import { shouldRetryToolOutcome } from '../src/dispatch/should-retry-tool-outcome';
import type { ModelAdapter } from '../src/models/model-adapter';
import { ModelError } from '../src/models/model-error';
import { createModelAdapter } from '../src/models/create-model-adapter';
import { modelErrorToApplicationFailure } from '../src/models/model-error-to-application-failure';
import type { ModelSettings } from '../src/models/model-settings';
import { buildToolCatalog } from '../src/tools/catalog/build-tool-catalog';
import { executePreparedCall } from '../src/tools/lifecycle/execute-prepared-call';
import { prepareToolCall } from '../src/tools/lifecycle/prepare-tool-call';
import type { ToolHooks } from '../src/tools/lifecycle/tool-hooks';
import type { ToolRegistry } from '../src/tools/tool-registry';
import type { SessionActivities } from './types';
import { reportLateToolEnd } from './report-late-tool-end';

/** What the session activities need from the worker. */
export interface SessionActivityDependencies {
  registry: ToolRegistry;
  /** Scripted models by name, for sessions whose model settings say `provider: 'scripted'`. */
  scriptedModels?: ReadonlyMap<string, ModelAdapter>;
  /** Where API keys are read from. Defaults to `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Directory oversized tool results are written to. */
  offloadDirectory: string;
  hooks?: ToolHooks;
  /** How often running activities heartbeat on their own (so cancellations reach them), in ms. Defaults to 1 000. */
  heartbeatIntervalMs?: number;
  /**
   * How long a tool may take to settle after its abort signal fired before it is reported as still
   * running (and its late end recorded in the transcript), in milliseconds. Defaults to 5 000.
   */
  toolAbortGraceMs?: number;
}

/**
 * Builds the activities of the session workflow: the turn's catalog, the model call (which also
 * prepares each proposed call: resolve, parse, validate, classify, permission), and the execution
 * of one prepared call. Model calls and tools get the activity's cancellation signal, and every
 * activity heartbeats while it runs so a cancellation reaches it within the heartbeat throttle.
 */
export function createSessionActivities(dependencies: SessionActivityDependencies): SessionActivities {
  const { registry, offloadDirectory, hooks } = dependencies;
  const heartbeatIntervalMs = dependencies.heartbeatIntervalMs ?? 1_000;
  const adapters = new Map<string, ModelAdapter>();
  const adapterFor = (settings: ModelSettings): ModelAdapter => {
    const key = JSON.stringify(settings);
    let adapter = adapters.get(key);
    if (adapter === undefined) {
      adapter = createModelAdapter(settings, {
        ...(dependencies.scriptedModels ? { scriptedModels: dependencies.scriptedModels } : {}),
        ...(dependencies.env ? { env: dependencies.env } : {}),
      });
      adapters.set(key, adapter);
    }
    return adapter;
  };
  const catalogOf = (tools: readonly string[] | undefined, revealed: readonly string[]): ToolCatalog => {
    const full = buildToolCatalog({ registry, revealed });
    if (tools === undefined) return full;
    const allowed = new Set(tools);
    return { ...full, tools: full.tools.filter((tool) => allowed.has(tool.name) || tool.name === TOOL_SEARCH_NAME) };
  };

  return {
    loadCatalog({ tools, revealed, knownVersion }) {
      const catalog = catalogOf(tools, revealed);
      // Most turns find the catalog unchanged: then only its version goes into the history.
      return Promise.resolve(
        catalog.version === knownVersion ? { unchanged: true as const, version: catalog.version } : catalog,
      );
    },

    async callModel({ sessionId, turn, settings, system, messages, tools, catalog, interactive }) {
      const context = Context.current();
      const response = await withHeartbeats(heartbeatIntervalMs, async () => {
        try {
          return await adapterFor(settings).complete(
            { model: settings.model, ...(system === undefined ? {} : { system }), messages, tools, turn },
            { signal: context.cancellationSignal },
          );
        } catch (error) {
          if (context.cancellationSignal.aborted) throw context.cancellationSignal.reason;
          if (ModelError.isInstance(error)) throw modelErrorToApplicationFailure(error);
          throw error;
        }
      });
      // The catalog the model saw: names fixed by the workflow for this turn (deferred ones it lists count as revealed).
      const turnCatalog = catalogOf(catalog, catalog);
      const prepared = await Promise.all(
        response.toolCalls.map((call) =>
          prepareToolCall({
            registry,
            call: { callId: call.id, name: call.name, args: call.args },
            context: { sessionId, interactive, signal: context.cancellationSignal },
            catalog: turnCatalog,
          }),
        ),
      );
      return { response, prepared };
    },

    async executeTool({ sessionId, turn, interactive, prepared, approved }) {
      const context = Context.current();
      const afterAbort = reportLateToolEnd({
        callId: prepared.callId,
        toolName: prepared.toolName,
        graceMs: dependencies.toolAbortGraceMs ?? 5_000,
      });
      let stillRunning = false;
      const outcome = await withHeartbeats(heartbeatIntervalMs, () =>
        executePreparedCall({
          registry,
          prepared,
          approved,
          afterAbort: { ...afterAbort, onStillRunning: () => ((stillRunning = true), afterAbort.onStillRunning()) },
          offload: { directory: offloadDirectory },
          ...(hooks ? { hooks } : {}),
          context: {
            sessionId,
            interactive,
            signal: context.cancellationSignal,
            // Local activities have no heartbeats (the worker warns about each one): the call's heartbeat is a no-op there.
            heartbeat: (details) => (context.info.isLocal ? undefined : context.heartbeat(details)),
            idempotencyKey: `${sessionId}/${turn}/${prepared.callId}`,
          },
        }),
      );
      // Report a cancellation as one, so the workflow (and the UI) see the call was cancelled; but a
      // tool that did not stop is reported as such (its outcome says it may still apply its effect).
      if (context.cancellationSignal.aborted && !stillRunning) throw context.cancellationSignal.reason;
      if (shouldRetryToolOutcome({ outcome, prepared, attempt: context.info.attempt })) {
        throw ApplicationFailure.retryable(
          outcome.type === 'tool-error' ? outcome.message : 'retry',
          outcome.type === 'tool-error' ? outcome.code : 'RETRY',
        );
      }
      return outcome;
    },
  };
}

/**
 * Runs `work` while heartbeating every `intervalMs`, so cancellation and liveness reach the server.
 * A local activity does not heartbeat (it gets cancellations without), so it just runs `work`.
 */
async function withHeartbeats<T>(intervalMs: number, work: () => Promise<T>): Promise<T> {
  const context = Context.current();
  if (context.info.isLocal) return work();
  context.heartbeat();
  const timer = setInterval(() => context.heartbeat(), intervalMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
