import type { HeldToolCatalog, PreparedCall, ToolCatalog, ToolErrorOutcome } from '../src/dispatch';
import type {
  ConversationLog,
  ConversationLogKeys,
  DispatchedCall,
  MessageRef,
  ModelContextView,
} from '../src/session';
import type { InputArguments } from '../src/dispatch';
import type { ConversationMessage, ModelResponse, ModelToolSpec } from '../src/models';
import type { ModelSettings } from '../src/model-settings';
import type { ContentRef, StoreIdentity } from '../src/store';

/**
 * What every activity that touches the content store is given: the session, and the id of its
 * store (recorded when it started; absent only in the session's first activity, which finds it). A
 * worker whose store has another id refuses the activity (`STORE_MISMATCH`); the workflow names the
 * session's store in full.
 */
export interface SessionStoreInput {
  sessionId: string;
  storeId?: string;
}

/** Input of {@link SessionActivities.loadCatalog}. */
export interface LoadCatalogInput {
  sessionId: string;
  /** Tool names the session may use; `undefined` means every registered tool. */
  tools: string[] | undefined;
  /** Deferred tools that `tool_search` revealed so far. */
  revealed: string[];
  /** Version of the catalog the session holds; when the current one has it, only `{ unchanged: true }` comes back. */
  knownVersion?: string;
}

/** A name in the session's `tools` that the worker's registry does not have, and the registered name nearest to it. */
export interface UnknownTool {
  name: string;
  nearest?: string;
}

/**
 * What {@link SessionActivities.loadCatalog} returns: the turn's catalog as the session holds it
 * (`heldCatalog`: names, and why a tool cannot run; with the names of the session's `tools` the
 * registry does not have, when there are any), or word that the held one is current. A change of
 * unknown names changes the catalog too, so `unchanged` never hides one.
 */
export type LoadCatalogResult =
  (HeldToolCatalog & { unknownTools?: UnknownTool[] }) | { unchanged: true; version: string };

/** Input of {@link SessionActivities.callModel}. */
export interface CallModelInput extends SessionStoreInput {
  turn: number;
  settings: ModelSettings;
  /** The session's system prompt, inline: while no model call has stored it yet (or it is short). */
  system?: string;
  /** The session's system prompt by the key a model call stored it under: a long prompt goes inline once, then so. */
  systemKey?: string;
  /**
   * The conversation so far, by the keys of its newest segment and of the entries after it (the
   * activity reads the rest from the content store); the model's response is sealed after it.
   */
  conversation: ConversationLogKeys;
  /**
   * The visible tools, by the version of the session's catalog and which of its tools are visible;
   * the activity builds the catalog again from the worker's registry. When that catalog has
   * another version, the model is not called: the activity returns the current catalog instead.
   */
  toolset?: ToolsetByVersion;
  /** The visible tools whole, with the names of the turn's catalog (a turn whose catalog changed under it). */
  tools?: ModelToolSpec[];
  /** Tool names of this turn's catalog, with `tools`: calls outside it are unknown tools. */
  catalog?: string[];
  interactive: boolean;
}

/** The tools of one model call, by reference to the session's catalog. */
export interface ToolsetByVersion {
  /** The catalog's version (a hash of its content). */
  version: string;
  /** Which of its tools are visible (`visibleToolMask`: a hex bit mask over the catalog's order). */
  visible: string;
  /** The session's tool filter (`SessionInput.tools`); `null`: every registered tool. */
  filter: string[] | null;
  /** Deferred tools `tool_search` revealed. */
  revealed: string[];
}

/** Output of {@link SessionActivities.callModel}: the response, stored, and each proposed call prepared. */
export interface CallModelResult {
  /**
   * The key this call stored the system prompt under: when it came inline and is longer than
   * `inlineSystemPromptBytes`, so the next calls name it by its key.
   */
  systemKey?: string;
  response: ModelResponse;
  /** The response as a conversation message, stored. */
  assistant: MessageRef;
  /** What the model was shown of the conversation, within its context budget. */
  shown: ModelContextView;
  /**
   * Same order as `response.toolCalls`: a call ready for rules and dispatch, or the error it
   * already got; empty when the finish reason stops the calls (cut off, refused, filtered, paused).
   */
  prepared: (PreparedCall | ToolErrorOutcome)[];
  /**
   * The segment that now ends the log (its tail and the response, sealed after its head); absent
   * when the store failed then.
   */
  sealed?: ContentRef;
}

/**
 * What {@link SessionActivities.callModel} returns when the session's catalog changed: the current
 * one, and no model call.
 */
export interface CatalogChangedResult {
  /** The current catalog, with the names in the session's `tools` the registry lacks (as `loadCatalog` gives it). */
  catalogChanged: ToolCatalog & { unknownTools?: UnknownTool[] };
}

/** Input of {@link SessionActivities.storeMessages}. */
export interface StoreMessagesInput extends SessionStoreInput {
  messages: ConversationMessage[];
}

/** Input of {@link SessionActivities.beginSession}. */
export interface BeginSessionInput {
  sessionId: string;
  /** The first message, to store (none when the session started without one, or with it stored). */
  messages: ConversationMessage[];
  /** Tool names the session may use; `undefined` means every registered tool. */
  tools: string[] | undefined;
}

/** What {@link SessionActivities.beginSession} returns. */
export interface BeganSession {
  /** The identity of this worker's content store, the session's from now on. */
  store: StoreIdentity;
  /** The messages, stored there, in order. */
  messages: MessageRef[];
  /** The first turn's catalog (as `loadCatalog` gives it). */
  catalog: HeldToolCatalog & { unknownTools?: UnknownTool[] };
}

/** Input of {@link SessionActivities.sealLog}. */
export interface SealLogInput extends SessionStoreInput {
  log: ConversationLog;
}

/**
 * What {@link SessionActivities.executeTool} returns: the outcome for the rules, and the result
 * message, stored. A result's `output` is `null` unless the rules read it (or it is
 * `tool_search`'s): the whole output is in `message`, in the content store, and stays out of the
 * workflow's history; a read output is a preview when it is large. A result that could not be
 * stored has no `message` and keeps its output (a preview when it is large, with `storeError`
 * saying why), for the workflow to store once the store is back.
 */
export type ExecutedCall = DispatchedCall;

/** Input of {@link SessionActivities.executeTool}. */
export interface ExecuteToolInput extends SessionStoreInput {
  /** Session turn of the call, part of its idempotency key. */
  turn: number;
  call: PreparedCall;
  interactive: boolean;
  /** Whether a human approved this call (its permission was `ask`). */
  approved: boolean;
  /**
   * Whether the rules read this call's output: then it comes back (whole unless its text passes
   * `resultOffloadBytes`); else it stays in the content store.
   */
  rulesReadOutput: boolean;
}

/** Input of {@link SessionActivities.recoverToolCall}: the call, by its idempotency key's parts. */
export interface RecoverToolCallInput extends SessionStoreInput {
  turn: number;
  callId: string;
}

/** What {@link SessionActivities.recoverToolCall} found: the call's outcome as its activity recorded it, or `null`. */
export interface RecoveredToolCall {
  executed: ExecutedCall | null;
}

/** Input of {@link SessionActivities.awaitStore}. */
export interface AwaitStoreInput extends SessionStoreInput {
  /** Wait until this content of the session is back (restored); without it, until the store takes writes. */
  key?: string;
  /** Pause before the first check, in milliseconds. */
  firstCheckAfterMs: number;
  /** Pause between checks, in milliseconds. */
  intervalMs: number;
  /** How long to keep checking before reporting that the store is still not back, in milliseconds. */
  roundMs: number;
}

/** The activities a session workflow calls; the worker builds them with `createSessionActivities`. */
export interface SessionActivities {
  loadCatalog(input: LoadCatalogInput): Promise<LoadCatalogResult>;
  callModel(input: CallModelInput): Promise<CallModelResult | CatalogChangedResult>;
  /**
   * Runs one prepared call. A call that is not retried and runs as a regular activity also leaves a
   * record of what this returns in the content store, before it returns (see `recoverToolCall`).
   */
  executeTool(input: ExecuteToolInput): Promise<ExecutedCall>;
  /**
   * Looks up the record `executeTool` left of a call whose activity timed out after it started: the
   * call finished, but its completion never reached the Temporal server (it was down, or the worker
   * died after the tool returned).
   */
  recoverToolCall(input: RecoverToolCallInput): Promise<RecoveredToolCall>;
  /**
   * Writes messages to the content store (idempotent) and returns their references, in order. Its
   * input may come in parts (`inputArguments`), as a local activity's that could be over 256 KiB does.
   */
  storeMessages(...input: InputArguments<StoreMessagesInput>): Promise<MessageRef[]>;
  /**
   * Seals the log's tail into a segment in the content store; returns the log with the new head and
   * an empty tail. In parts, as `storeMessages`.
   */
  sealLog(...input: InputArguments<SealLogInput>): Promise<ConversationLog>;
  /**
   * A new session's first look at its worker, at once: the identity of its content store (which the
   * session records), its first message stored there, and the first turn's catalog. In parts, as `storeMessages`.
   */
  beginSession(...input: InputArguments<BeginSessionInput>): Promise<BeganSession>;
  /**
   * Resolves once the session's store is back: it takes writes again (or holds `key` again, whole),
   * and is this worker's. Checks every `intervalMs`; rejects with the store's failure when `roundMs`
   * passed without it (the workflow then shows the newest error and asks again), or at once with
   * `STORE_MISMATCH` (retried by Temporal, so a worker with the session's store takes it).
   */
  awaitStore(input: AwaitStoreInput): Promise<void>;
}
