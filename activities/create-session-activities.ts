import { ApplicationFailure, Context } from '@temporalio/activity';
import type { PayloadCodec } from '@temporalio/common';
import type { ToolCatalog, ToolOutcome } from '../src/dispatch';
import { TOOL_SEARCH_NAME } from '../src/kernel';
import { isRecordedCall, shouldRetryToolOutcome } from '../src/dispatch';
import type { ModelAdapter, ProposedToolCall, ModelSettings } from '../src/models';
import { ModelError, createModelAdapter, modelErrorToApplicationFailure } from '../src/models';
import { buildToolCatalog, executePreparedCall, prepareToolCall } from '../src/tools';
import type { ToolHooks, ToolRegistry } from '../src/tools';
import { buildModelMessages, resolveContextBudget, createConversationReader } from '../src/conversation';
import { ContentStoreError, encodedContent, readStoreIdentity } from '../src/store';
import type { ContentStore } from '../src/store';
import type { SessionActivities } from './types';
import { reportLateToolEnd } from './report-late-tool-end';
import { readToolCallRecord, writeToolCallRecord } from './tool-call-record';
import { awaitStore } from './await-store';
import { checkSessionStore, keepTrying, reportingStoreFailures, storeFailure } from './store-failures';
import { storeToolResult } from './store-tool-result';

/** What the session activities need from the worker. */
export interface SessionActivityDependencies {
  registry: ToolRegistry;
  /** Scripted models by name, for sessions whose model settings say `provider: 'scripted'`. */
  scriptedModels?: ReadonlyMap<string, ModelAdapter>;
  /** Where API keys are read from. Defaults to `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
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
  const heartbeatIntervalMs = dependencies.heartbeatIntervalMs ?? 1_000;
  const resultOffloadBytes = dependencies.resultOffloadBytes ?? 262_144;
  const content = encodedContent(store, {
    ...(dependencies.payloadCodecs ? { payloadCodecs: dependencies.payloadCodecs } : {}),
    ...(dependencies.namespace ? { namespace: dependencies.namespace } : {}),
  });
  const conversation = createConversationReader(content);
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
    async loadCatalog({ tools, revealed, knownVersion }) {
      // Sources of changing tools (MCP servers) catch up first: a tool list they announced changed is in this turn's catalog.
      await registry.refresh();
      const catalog = catalogOf(tools, revealed);
      // Most turns find the catalog unchanged: then only its version goes into the history.
      return catalog.version === knownVersion ? { unchanged: true as const, version: catalog.version } : catalog;
    },

    async callModel({ sessionId, store: sessionStore, turn, settings, system, log, tools, catalog, interactive }) {
      const context = Context.current();
      const startedAt = Date.now();
      // The request is built from the content store, within the model's context budget.
      const budgetBytes = resolveContextBudget(settings);
      const { messages, shown } = await reportingStoreFailures(async () => {
        await checkSessionStore(store, sessionStore, sessionId);
        const entries = await conversation.readLog(sessionId, log);
        return buildModelMessages(entries, (refs) => conversation.readMessages(sessionId, refs), { budgetBytes });
      });
      const answered = await withHeartbeats(heartbeatIntervalMs, async () => {
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
      // Whatever the adapter returned, every call gets an id unique in the session's turn: the workflow keys outcomes by it.
      const response = { ...answered, toolCalls: withDistinctCallIds(answered.toolCalls, turn) };
      // The catalog the model saw: names fixed by the workflow for this turn (deferred ones it lists count as revealed).
      const turnCatalog = catalogOf(catalog, catalog);
      const prepared = await Promise.all(
        response.toolCalls.map((call) =>
          prepareToolCall({
            registry,
            call,
            context: { sessionId, interactive, signal: context.cancellationSignal },
            catalog: turnCatalog,
          }),
        ),
      );
      // The model answered: a store that fails now is tried again for a while before the answer is given up.
      const storing = await keepTrying(
        () =>
          conversation.storeMessages(sessionId, [
            { role: 'assistant', ...(response.text ? { text: response.text } : {}), toolCalls: response.toolCalls },
          ]),
        Math.min(Date.now() + responseStoreRetryMs, activityDeadline(startedAt)),
      );
      if ('error' in storing) throw storeFailure(storing.error);
      const [assistant] = storing.value;
      if (assistant === undefined) throw new Error('the content store returned no reference for the response');
      const { messages: shownMessages, previewed, omitted, bytes } = shown;
      return {
        response,
        assistant,
        prepared,
        shown: { messages: shownMessages, previewed, omitted, bytes, budgetBytes },
      };
    },

    storeMessages: ({ sessionId, store: sessionStore, messages }) =>
      reportingStoreFailures(async () => {
        await checkSessionStore(store, sessionStore, sessionId);
        return conversation.storeMessages(sessionId, messages);
      }),

    sealLog: ({ sessionId, store: sessionStore, log }) =>
      reportingStoreFailures(async () => {
        await checkSessionStore(store, sessionStore, sessionId);
        return conversation.sealTail(sessionId, log);
      }),

    identifyStore: () => reportingStoreFailures(() => readStoreIdentity(store)),

    awaitStore: (input) => awaitStore(content, input),

    async executeTool({ sessionId, store: sessionStore, turn, interactive, prepared, approved, rulesReadOutput }) {
      const context = Context.current();
      const deadline = activityDeadline(Date.now());
      // A worker with another store refuses the call before it runs (so it may run elsewhere).
      await reportingStoreFailures(() => checkSessionStore(store, sessionStore, sessionId));
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
        throw retryFailure(outcome, (dependencies.payloadCodecs?.length ?? 0) > 0);
      }
      // The tool ran: from here on no store error fails the call (its result is stored, or reported unstored).
      const executed = await withHeartbeats(heartbeatIntervalMs, async () => {
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

    recoverToolCall: ({ sessionId, store: sessionStore, turn, callId }) =>
      reportingStoreFailures(async () => {
        await checkSessionStore(store, sessionStore, sessionId);
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

/**
 * The calls with ids that are non-empty and distinct: a missing, empty or repeated id (a custom
 * adapter's, a scripted model's, or a provider's that repeats them) becomes `call_<turn>_<index>`,
 * suffixed until it is distinct too. The model sees the ids as given here, so each result still
 * answers its own call.
 */
export function withDistinctCallIds(calls: readonly ProposedToolCall[], turn: number): ProposedToolCall[] {
  const taken = new Set<string>();
  return calls.map((call, index) => {
    let id = typeof call.id === 'string' && call.id !== '' && !taken.has(call.id) ? call.id : `call_${turn}_${index}`;
    for (let suffix = 2; taken.has(id); suffix += 1) id = `call_${turn}_${index}_${suffix}`;
    taken.add(id);
    return id === call.id ? call : { ...call, id };
  });
}
