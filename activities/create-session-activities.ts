import { ApplicationFailure, Context } from '@temporalio/activity';
import { ApplicationFailureCategory } from '@temporalio/common';
import type { PayloadCodec } from '@temporalio/common';
import type { ToolCatalog, ToolOutcome } from '../src/dispatch';
import { TOOL_SEARCH_NAME, inputOf } from '../src/dispatch';
import { suggestName, utf8ByteLength } from '../src/text';
import {
  CALL_CANCELLED_FAILURE_TYPE,
  heldCatalog,
  isRecordedCall,
  isVisibleInMask,
  shouldRetryToolOutcome,
} from '../src/dispatch';
import type { LanguageModelV4, ModelRequest, ModelToolSpec, WorkerModels, LanguageModelRegistry } from '../src/models';
import {
  ModelError,
  callLanguageModel,
  createModelResolver,
  modelErrorToApplicationFailure,
  toModelError,
} from '../src/models';
import { modelFinishOutcome } from '../src/session';
import { buildToolCatalog, executePreparedCall, prepareToolCall } from '../src/tools';
import type { ToolHooks, ToolRegistry } from '../src/tools';
import { buildModelMessages, createConversationReader } from '../src/conversation';
import { resolveContextBudget } from '../src/model-settings';
import { ContentStoreError, encodedContent, readStoreIdentity } from '../src/store';
import type { ContentStore } from '../src/store';
import type { SessionActivities, UnknownTool } from './types';
import { reportLateToolEnd } from './report-late-tool-end';
import { readToolCallRecord, writeToolCallRecord } from './tool-call-record';
import { awaitStore } from './await-store';
import { checkSessionStore, keepTrying, reportingStoreFailures, storeFailure } from './store-failures';
import { storeToolResult } from './store-tool-result';
import { annotateModelRequest, annotateModelResponse, annotateToolCall } from './gen-ai-span-attributes';
import { modelTextHooks } from './model-text-feed';
import type { ModelTextDelta, ModelTextFeed } from './model-text-feed';
import type { CallKind, LiveCalls } from '../src/live';

/** What the session activities need from the worker. */
export interface SessionActivityDependencies {
  registry: ToolRegistry;
  /** Language models by the id sessions name (`model: { id }`), each with its defaults if you like. */
  models?: WorkerModels;
  /** Resolves ids not in `models` (the AI SDK's `createProviderRegistry(...)`, or one provider). */
  modelRegistry?: LanguageModelRegistry;
  /** Scripted models by name, for sessions whose model settings say `provider: 'scripted'`. */
  scriptedModels?: ReadonlyMap<string, LanguageModelV4>;
  /** Where the built-in providers read API keys. Defaults to `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The `fetch` the built-in providers use. Defaults to the global one. */
  fetch?: typeof fetch;
  /**
   * Called with the model's text as it arrives: each delta of a streamed response, or the whole
   * text of one that is not streamed. `attempt` is the activity's attempt (a retried call starts its
   * text again). For your own live views; it must not throw or block (a throw is logged and ignored).
   */
  onModelTextDelta?: (event: ModelTextDelta) => void;
  /**
   * Where streamed text goes to the sessions' live feeds (`createModelTextFeed`,
   * `createLiveTextFeed`); nowhere when absent.
   */
  textFeed?: ModelTextFeed;
  /** The calls running here, for the live channel's cancellations to abort at once (see `createLiveWorker`). */
  liveCalls?: LiveCalls;
  hooks?: ToolHooks;
  /** How often running activities heartbeat on their own (so cancellations reach them), in ms. Defaults to 1 000. */
  heartbeatIntervalMs?: number;
  /** Where the sessions' conversations live (see `openContentStore`). */
  store: ContentStore;
  /**
   * The worker's payload codecs: everything written to `store` (messages, segments, results,
   * records) passes through them as the worker's Temporal payloads do. Read when content is written
   * or read, so the worker may fill the array once it is created. None: stored as it is.
   */
  payloadCodecs?: readonly PayloadCodec[];
  /** The worker's namespace, for the codecs' serialization context. Defaults to `default`. */
  namespace?: string;
  /**
   * Tool results whose rendered text is larger than this are offloaded: the full text stays in the
   * content store and the model reads a preview with its reference. In UTF-8 bytes; defaults to
   * 262 144 (256 KiB), whatever the tool's `maxResultSizeChars` (longer outputs are offloaded too).
   */
  resultOffloadBytes?: number;
  /**
   * How long a tool may take to settle after its abort signal fired before it is reported as still
   * running (and its late end recorded in the transcript), in milliseconds. Defaults to 5 000.
   */
  toolAbortGraceMs?: number;
}

/** How long the model call keeps trying to store the model's response when the store fails, in milliseconds. */
const responseStoreRetryMs = 20_000;
/**
 * Longest system prompt a model call's input carries inline every turn, in UTF-8 bytes: a longer one
 * is stored by the first call (in the session's content store) and named by its key from then on.
 */
const inlineSystemPromptBytes = 256;
/** Time kept back at the end of an activity's start-to-close timeout, in milliseconds: it must still complete. */
const completionMarginMs = 2_000;

/**
 * Builds the activities of the session workflow: the turn's catalog, the model call (which also
 * prepares each proposed call: resolve, parse, validate, classify, permission), and the execution
 * of one prepared call. Model calls and tools get the activity's cancellation signal, and every
 * activity heartbeats while it runs so a cancellation reaches it within the heartbeat throttle.
 */
export function createSessionActivities(dependencies: SessionActivityDependencies): SessionActivities {
  const { registry, hooks, store } = dependencies;
  // With a live channel cancellations come through it: an activity heartbeats only to show it is
  // alive, at 40% of its heartbeat timeout (a call shorter than that sends none).
  const heartbeatIntervalMs = (): number => {
    const own = dependencies.heartbeatIntervalMs ?? 1_000;
    const timeoutMs = Context.current().info.heartbeatTimeoutMs;
    return dependencies.liveCalls && timeoutMs ? Math.max(own, 0.4 * timeoutMs) : own;
  };
  const resultOffloadBytes = dependencies.resultOffloadBytes ?? 262_144;
  const content = encodedContent(store, {
    ...(dependencies.payloadCodecs ? { payloadCodecs: dependencies.payloadCodecs } : {}),
    ...(dependencies.namespace ? { namespace: dependencies.namespace } : {}),
  });
  const conversation = createConversationReader(content);
  const resolveModel = createModelResolver({
    ...(dependencies.models ? { models: dependencies.models } : {}),
    ...(dependencies.modelRegistry ? { modelRegistry: dependencies.modelRegistry } : {}),
    ...(dependencies.scriptedModels ? { scriptedModels: dependencies.scriptedModels } : {}),
    ...(dependencies.env ? { env: dependencies.env } : {}),
    ...(dependencies.fetch ? { fetch: dependencies.fetch } : {}),
  });
  const catalogOf = (tools: readonly string[] | undefined, revealed: readonly string[]): ToolCatalog => {
    const full = buildToolCatalog({ registry, revealed });
    if (tools === undefined) return full;
    const allowed = new Set(tools);
    return { ...full, tools: full.tools.filter((tool) => allowed.has(tool.name) || tool.name === TOOL_SEARCH_NAME) };
  };

  // A name in the session's `tools` the registry does not know (by name or alias): a typo, or a tool this worker lacks.
  const unknownToolsOf = (tools: readonly string[] | undefined): UnknownTool[] => {
    const unknown = (tools ?? []).filter((name) => name !== TOOL_SEARCH_NAME && registry.resolve(name) === undefined);
    if (unknown.length === 0) return [];
    const registered = registry.list().map((tool) => tool.name);
    return unknown.map((name) => {
      const nearest = suggestName(name, registered);
      return nearest === undefined ? { name } : { name, nearest };
    });
  };

  /**
   * The catalog now, with the session's unknown tool names: sources of changing tools (MCP servers)
   * catch up first, so a tool list they announced changed is in it.
   */
  const currentCatalog = async (
    tools: readonly string[] | undefined,
    revealed: readonly string[],
  ): Promise<ToolCatalog & { unknownTools?: UnknownTool[] }> => {
    await registry.refresh();
    const catalog = catalogOf(tools, revealed);
    const unknownTools = unknownToolsOf(tools);
    return unknownTools.length > 0 ? { ...catalog, unknownTools } : catalog;
  };

  return {
    async loadCatalog({ tools, revealed, knownVersion }) {
      const catalog = await currentCatalog(tools, revealed);
      // Most turns find the catalog unchanged: then only its version goes into the history.
      return catalog.version === knownVersion
        ? { unchanged: true as const, version: catalog.version }
        : heldCatalog(catalog);
    },

    async callModel({
      sessionId,
      storeId,
      turn,
      settings,
      system: inlineSystem,
      systemKey,
      conversation: logKeys,
      toolset,
      tools,
      catalog,
      interactive,
    }) {
      const context = Context.current();
      const startedAt = Date.now();
      const signal = context.cancellationSignal;
      const resolved = asApplicationFailure(() => resolveModel(settings));
      const { model, stream } = resolved;
      // The tools: by the catalog's version (built again here; a catalog that changed comes back instead), or whole.
      let visible: ModelToolSpec[];
      // The catalog the model saw: the session's, or the names the workflow fixed for this turn
      // (deferred ones it lists count as revealed).
      let turnCatalog: ToolCatalog;
      if (toolset !== undefined) {
        // As for the catalog activity: sources of changing tools (MCP servers) catch up first.
        await registry.refresh();
        const filter = toolset.filter ?? undefined;
        turnCatalog = catalogOf(filter, toolset.revealed);
        if (turnCatalog.version !== toolset.version) {
          const unknownTools = unknownToolsOf(filter);
          return { catalogChanged: unknownTools.length > 0 ? { ...turnCatalog, unknownTools } : turnCatalog };
        }
        visible = turnCatalog.tools.flatMap(({ name, description, inputSchema }, index) =>
          isVisibleInMask(toolset.visible, index) ? [{ name, description, inputSchema }] : [],
        );
      } else {
        visible = tools ?? [];
        turnCatalog = catalogOf(catalog ?? [], catalog ?? []);
      }
      // The request is built from the content store, within the model's context budget.
      const budgetBytes = resolveContextBudget({
        provider: model.provider,
        contextBudgetBytes: resolved.contextBudgetBytes,
      });
      const { entries, messages, shown, system } = await reportingStoreFailures(async () => {
        await checkSessionStore(store, storeId, sessionId);
        const system = systemKey === undefined ? inlineSystem : await conversation.readText(sessionId, systemKey);
        const entries = await conversation.readLogKeys(sessionId, logKeys);
        const built = await buildModelMessages(entries, (refs) => conversation.readMessages(sessionId, refs), {
          budgetBytes,
        });
        return { entries, system, ...built };
      });
      const { contextBudgetBytes: _budget, stream: _stream, ...generation } = resolved.generation;
      const request: ModelRequest = {
        model: model.modelId,
        ...(system === undefined ? {} : { system }),
        messages,
        tools: visible,
        turn,
        sessionId,
        ...generation,
      };
      annotateModelRequest(model, request, stream);
      // Streamed text goes to the live feed (and the worker's hook) as it arrives.
      const text = modelTextHooks(
        { sessionId, turn, attempt: context.info.attempt, streamed: stream },
        dependencies,
        () => context,
      );
      // An interrupt reaches the call through the live channel at once, or through Temporal's cancellation.
      const live = liveCancellation(dependencies.liveCalls, sessionId, { model: true });
      const called = await withHeartbeats(heartbeatIntervalMs(), async () => {
        try {
          return await callLanguageModel({
            model,
            request,
            stream,
            abortSignal: live.signal,
            // Each chunk is a sign of life: a cancellation reaches a streamed call within the heartbeat
            // throttle (with a live channel, cancellations come through it instead).
            ...(context.info.isLocal || dependencies.liveCalls ? {} : { onChunk: () => context.heartbeat() }),
            ...(text.onTextDelta ? { onTextDelta: text.onTextDelta } : {}),
          });
        } catch (error) {
          if (signal.aborted) throw signal.reason;
          live.throwIfCancelled();
          throw asFailure(toModelError(error, { provider: model.provider, signal }));
        } finally {
          text.end();
          live.release();
        }
      });
      const { response } = called;
      annotateModelResponse(response, called);
      // Calls of a response that was cut off, refused, filtered or paused never run: they are not stored either.
      const runs = modelFinishOutcome(response.finishReason, response.toolCalls.length).kind === 'calls';
      const { toolCallMetadata: _notRun, ...withoutCalls } = called.assistant;
      const stored = runs ? called.assistant : { ...withoutCalls, toolCalls: [] };
      const prepared = runs
        ? await Promise.all(
            response.toolCalls.map((call) =>
              prepareToolCall({ registry, call, context: { sessionId, interactive, signal }, catalog: turnCatalog }),
            ),
          )
        : [];
      // The model answered: a store that fails now is tried again for a while before the answer is given up.
      const storing = await keepTrying(
        () => conversation.storeMessages(sessionId, [stored]),
        Math.min(Date.now() + responseStoreRetryMs, activityDeadline(startedAt)),
      );
      if ('error' in storing) throw storeFailure(storing.error);
      const [assistant] = storing.value;
      if (assistant === undefined) throw new Error('the content store returned no reference for the response');
      // The log's tail and the response are sealed after its head: the next call's input names one segment.
      // Sealing only keeps the next input short: should the store fail now, the workflow appends
      // the response to its tail.
      const tail = entries.slice(entries.length - logKeys.tail.length);
      const sealing = await keepTrying(
        () => conversation.sealAfter(sessionId, logKeys.head, [...tail, assistant]),
        Math.min(Date.now() + responseStoreRetryMs, activityDeadline(startedAt)),
      );
      // A long system prompt that came inline is stored, for the next calls to name by its key (one
      // that cannot be stored now comes inline again).
      const storedSystem =
        inlineSystem !== undefined && utf8ByteLength(inlineSystem) > inlineSystemPromptBytes
          ? await conversation.storeText(sessionId, inlineSystem).catch(() => undefined)
          : undefined;
      const { messages: shownMessages, previewed, omitted, bytes } = shown;
      return {
        ...(storedSystem === undefined ? {} : { systemKey: storedSystem }),
        response,
        assistant,
        shown: { messages: shownMessages, previewed, omitted, bytes, budgetBytes },
        prepared,
        ...('value' in sealing ? { sealed: sealing.value } : {}),
      };
    },

    storeMessages: (...input) =>
      reportingStoreFailures(async () => {
        const { sessionId, storeId, messages } = inputOf(input);
        await checkSessionStore(store, storeId, sessionId);
        return conversation.storeMessages(sessionId, messages);
      }),

    sealLog: (...input) =>
      reportingStoreFailures(async () => {
        const { sessionId, storeId, log } = inputOf(input);
        await checkSessionStore(store, storeId, sessionId);
        return conversation.sealTail(sessionId, log);
      }),

    async beginSession(...input) {
      const { sessionId, messages, tools } = inputOf(input);
      const { store: identity, stored } = await reportingStoreFailures(async () => ({
        store: await readStoreIdentity(store),
        stored: messages.length > 0 ? await conversation.storeMessages(sessionId, messages) : [],
      }));
      return { store: identity, messages: stored, catalog: heldCatalog(await currentCatalog(tools, [])) };
    },

    awaitStore: (input) => awaitStore(content, input),

    async executeTool({ sessionId, storeId, turn, call: prepared, interactive, approved, rulesReadOutput }) {
      const context = Context.current();
      const deadline = activityDeadline(Date.now());
      annotateToolCall(sessionId, turn, prepared.callId, prepared.toolName);
      // A worker with another store refuses the call before it runs (so it may run elsewhere).
      await reportingStoreFailures(() => checkSessionStore(store, storeId, sessionId));
      const afterAbort = reportLateToolEnd({
        callId: prepared.callId,
        toolName: prepared.toolName,
        graceMs: dependencies.toolAbortGraceMs ?? 5_000,
      });
      let stillRunning = false;
      // The session's cancellation reaches the call through the live channel at once, or through Temporal's.
      const live = liveCancellation(dependencies.liveCalls, sessionId, { callId: prepared.callId });
      const outcome = await withHeartbeats(heartbeatIntervalMs(), () =>
        executePreparedCall({
          registry,
          prepared,
          approved,
          afterAbort: { ...afterAbort, onStillRunning: () => ((stillRunning = true), afterAbort.onStillRunning()) },
          ...(hooks ? { hooks } : {}),
          context: {
            sessionId,
            interactive,
            signal: live.signal,
            // Local activities have no heartbeats (the worker warns about each one): the call's
            // heartbeat is a no-op there.
            heartbeat: (details) => (context.info.isLocal ? undefined : context.heartbeat(details)),
            idempotencyKey: `${sessionId}/${turn}/${prepared.callId}`,
          },
        }),
      ).finally(() => live.release());
      // Report a cancellation as one, so the workflow (and the UI) see the call was cancelled; but a
      // tool that did not stop is reported as such (its outcome says it may still apply its effect).
      if (context.cancellationSignal.aborted && !stillRunning) throw context.cancellationSignal.reason;
      if (!stillRunning) live.throwIfCancelled();
      if (shouldRetryToolOutcome({ outcome, prepared, attempt: context.info.attempt })) {
        throw retryFailure(outcome, (dependencies.payloadCodecs?.length ?? 0) > 0);
      }
      // The tool ran: from here on no store error fails the call (its result is stored, or reported unstored).
      const executed = await withHeartbeats(heartbeatIntervalMs(), async () => {
        const result = await storeToolResult({
          conversation,
          sessionId,
          outcome,
          maxResultSizeChars: registry.get(prepared.toolName)?.maxResultSizeChars ?? Number.POSITIVE_INFINITY,
          resultOffloadBytes,
          rulesReadOutput,
          deadline,
        });
        // A call that runs once keeps a record of its outcome, so a completion the server never gets is not lost.
        if (isRecordedCall(prepared)) {
          const recorded = await keepTrying(
            () => writeToolCallRecord(content, { sessionId, turn, executed: result }),
            deadline,
          );
          // The outcome still goes to the workflow; only its recovery after a lost completion is off.
          if ('error' in recorded)
            context.log.warn('could not record the outcome of a tool call', {
              sessionId,
              callId: prepared.callId,
              error: recorded.error.message,
            });
        }
        return result;
      });
      if (executed.message === undefined)
        context.log.warn(
          `[toolrail] ${prepared.toolName} call ${prepared.callId} ran; its result could not be stored`,
          {
            sessionId,
            error: executed.outcome.type === 'tool-result' ? executed.outcome.storeError : undefined,
          },
        );
      return executed;
    },

    recoverToolCall: ({ sessionId, storeId, turn, callId }) =>
      reportingStoreFailures(async () => {
        await checkSessionStore(store, storeId, sessionId);
        try {
          return { executed: (await readToolCallRecord(content, { sessionId, turn, callId })) ?? null };
        } catch (error) {
          // A record that is there but corrupt is never used: the call is reported as one that may or may not have run.
          if (error instanceof ContentStoreError && error.code === 'CONTENT_CORRUPT')
            throw ApplicationFailure.nonRetryable(error.message, 'RECORD_UNREADABLE');
          throw error;
        }
      }),
  };
}

/**
 * A call's abort signal: Temporal's cancellation, or the session's through the live channel (when
 * the worker has one).
 */
interface LiveCancellation {
  readonly signal: AbortSignal;
  /** Throws the failure the workflow reads as a cancellation, when the live channel cancelled the call. */
  throwIfCancelled(): void;
  release(): void;
}

function liveCancellation(calls: LiveCalls | undefined, sessionId: string, kind: CallKind): LiveCancellation {
  const temporal = Context.current().cancellationSignal;
  const tracked = calls?.track(sessionId, kind);
  if (tracked === undefined) return { signal: temporal, throwIfCancelled: () => undefined, release: () => undefined };
  return {
    signal: AbortSignal.any([temporal, tracked.signal]),
    throwIfCancelled: () => {
      // Not retried: the workflow has cancelled the call (its cancellation is on its way to the activity too).
      if (tracked.signal.aborted)
        throw ApplicationFailure.create({
          message: 'cancelled by the session',
          type: CALL_CANCELLED_FAILURE_TYPE,
          nonRetryable: true,
          // Benign: the worker logs it at debug level, as a cancellation.
          category: ApplicationFailureCategory.BENIGN,
        });
    },
    release: () => tracked.release(),
  };
}

/**
 * When the current activity attempt, started at `startedAt` (epoch milliseconds), must complete by:
 * its start-to-close timeout, less a margin.
 */
function activityDeadline(startedAt: number): number {
  const { info } = Context.current();
  const timeout = info.startToCloseTimeoutMs > 0 ? info.startToCloseTimeoutMs : 60_000;
  return startedAt + timeout - completionMarginMs;
}

/**
 * The failure that makes Temporal retry a call. Temporal keeps a failure's message as it is (the
 * last one lands in the history when the call completes, and the worker logs each), outside the
 * payload codecs. So with codecs it says only the error code, not the tool's message, which may
 * quote what the session holds; the attempt that ends the call reports its message in its result.
 */
function retryFailure(outcome: ToolOutcome, encoded: boolean): ApplicationFailure {
  const type = outcome.type === 'tool-error' ? outcome.code : 'RETRY';
  const message = outcome.type === 'tool-error' ? outcome.message : 'retry';
  return ApplicationFailure.retryable(encoded ? `${type}: the tool failed; it is retried` : message, type);
}

/**
 * Runs `work` while heartbeating every `intervalMs`, so cancellation and liveness reach the server.
 * The first heartbeat goes out after `intervalMs`, not at the start: a cancellation reaches an
 * activity only in the answer to a heartbeat, so one sent as the activity starts would tell it
 * nothing a later one does not, and it cost the server a write for every model and tool call
 * (most of which end sooner). A local activity does not heartbeat (it gets cancellations without),
 * so it just runs `work`.
 */
async function withHeartbeats<T>(intervalMs: number, work: () => Promise<T>): Promise<T> {
  const context = Context.current();
  if (context.info.isLocal) return work();
  const timer = setInterval(() => context.heartbeat(), intervalMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

/**
 * A model error as the failure the activity throws (type = code, retry per code, delay per
 * retry-after); anything else as it is.
 */
function asFailure(error: unknown): unknown {
  return ModelError.isInstance(error) ? modelErrorToApplicationFailure(error) : error;
}

/** Runs `work`, turning a `ModelError` it throws (e.g. `CONFIGURATION`) into the activity's failure. */
function asApplicationFailure<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw asFailure(error);
  }
}
