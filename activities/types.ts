import type {
  HeldToolCatalog,
  PackedPreparedCall,
  PackedToolOutcome,
  ToolCatalog,
  ToolErrorOutcome,
} from '../src/dispatch';
import type { InputArguments } from '../src/kernel';
import type { ConversationLog, ConversationLogKeys, MessageRef } from '../src/session';
import type { ConversationMessage, ModelResponse, ModelToolSpec, ModelSettings } from '../src/models';
import type { ContentRef, StoreIdentity } from '../src/store';

/**
 * What every activity that touches the content store is given: the session, and the identity of
 * its store (recorded when it started; sessions started before toolrail recorded it have none), by
 * its fingerprint (`storeFingerprint`; earlier workflows sent its id, and before that its
 * description too). A worker whose store has another identity refuses the activity
 * (`STORE_MISMATCH`); the workflow names the session's store in full.
 */
export interface SessionStoreInput {
  sessionId: string;
  store?: string | Packed<StoreIdentity, 'id'>;
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
 * registry does not have, when there are any), or word that the held one is current. A change of unknown names changes the catalog too, so `unchanged` never hides one.
 */
export type LoadCatalogResult =
  (HeldToolCatalog & { unknownTools?: UnknownTool[] }) | { unchanged: true; version: string };

/**
 * The input of an activity a session runs every turn: its session may be left out, as it is the id
 * of the workflow that scheduled the activity (earlier workflows always sent it).
 */
export type TurnActivityInput = Omit<SessionStoreInput, 'sessionId'> & { sessionId?: string };

/** Input of {@link SessionActivities.callModel}. */
export interface CallModelInput extends TurnActivityInput {
  turn: number;
  settings: ModelSettings;
  /** The session's system prompt, inline: while no model call has stored it yet (or it is short). */
  system?: string;
  /**
   * The session's system prompt by the key a model call stored it under (packed, `packContentKey`):
   * a long prompt is sent inline once, then by its key.
   */
  systemKey?: string;
  /**
   * The conversation so far, by the keys of its newest segment and of the entries after it, packed
   * (`packContentKey`; the activity reads the rest from the content store); the model's response is
   * sealed after it.
   */
  conversation?: ConversationLogKeys;
  /** The conversation so far as a whole log (workflows before `conversation`). */
  log?: ConversationLog;
  /**
   * The visible tools, by the version of the session's catalog and which of its tools are visible;
   * the activity builds the catalog again from the worker's registry (with the session's tool
   * filter and the revealed deferred tools, when it has any). When that catalog has another version,
   * the model is not called: the activity returns the current catalog instead.
   */
  toolset?: ToolsetByVersion;
  /** The visible tools whole, with the names of the turn's catalog (a turn whose catalog changed under it). */
  tools?: ModelToolSpec[];
  /** Tool names of this turn's catalog, with `tools`: calls outside it are unknown tools. */
  catalog?: string[];
  /** Whether the session is interactive; absent: it is not (earlier workflows always sent it). */
  interactive?: boolean;
}

/** The tools of one model call, by reference to the session's catalog. */
export interface ToolsetByVersion {
  /** The catalog's version (a hash of its content). */
  version: string;
  /** Which of its tools are visible (`visibleToolMask`); every one when absent. */
  visible?: string;
  /** The session's tool filter (`SessionInput.tools`), when it has one. */
  filter?: string[];
  /** Deferred tools `tool_search` revealed, when there are any. */
  revealed?: string[];
}

/** What the model was shown of the conversation, within its context budget. */
export interface ModelContextShown {
  /** Messages in the request. */
  messages: number;
  /** Tool results shown as their preview only. */
  previewed: number;
  /** Oldest messages left out entirely. */
  omitted: number;
  /** UTF-8 bytes of the request's messages. */
  bytes: number;
  /** The budget the request was built within, in bytes. */
  budgetBytes: number;
}

/**
 * `T` as an activity's result carries it through history: the fields other than `Kept` are left out
 * at their usual value (`withoutUsual`), which the workflow fills back in (`withUsual`). The full
 * form, as earlier versions wrote it, is a packed one too.
 */
export type Packed<T, Kept extends keyof T> = Pick<T, Kept> & Partial<T>;

/**
 * Output of {@link SessionActivities.callModel}: the response and, per proposed call, its
 * preparation. Packed: the workflow reads it with `unpackModelCallResult`.
 */
export interface CallModelResult {
  /**
   * The key (packed) this call stored the system prompt under: when it came inline and is longer
   * than `inlineSystemPromptBytes`, so the next calls name it by its key.
   */
  systemKey?: string;
  /** Without its finish reason when it is the usual one (`usualFinishReason`). */
  response: Omit<ModelResponse, 'finishReason'> & Partial<Pick<ModelResponse, 'finishReason'>>;
  /**
   * The response as a conversation message, stored: its key packed (`packStoredRef`), without its
   * role (`assistant`) and the preview its text or calls give (`usualAssistantRef`).
   */
  assistant: Packed<MessageRef, 'key' | 'bytes'>;
  /**
   * Without zero counts, without the budget when it is the settings' usual one
   * (`usualContextShown`), and without the messages and bytes when the request showed the whole
   * log (the workflow knows its count and bytes); left out when that leaves nothing.
   */
  shown?: Partial<ModelContextShown>;
  /**
   * Same order as `response.toolCalls`: a call ready for rules and dispatch, or the error it already
   * got. A call is packed next to the model's call it came from (`packPreparedCall(call, toolCall)`);
   * the list is left out when every call is as the model made it (each packs to its type alone).
   */
  prepared?: (PackedPreparedCall | ToolErrorOutcome)[];
  /** With `conversation`: the segment that now ends the log (its tail and the response sealed after its head); its key packed, no empty preview. */
  sealed?: Packed<ContentRef, 'key' | 'bytes'>;
}

/** What {@link SessionActivities.callModel} returns when the session's catalog changed: the current one, and no model call. */
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
 * message, stored. Packed: the workflow reads it with `unpackExecutedCall` (the call's record in the
 * content store keeps it whole).
 */
export interface ExecutedCall {
  /**
   * The outcome, without the call's id and tool when they are the scheduled call's, and without a
   * `null` output (`packToolOutcome`); left out when that leaves a result's type alone. A result's `output` is `null` unless the rules read it (or it is `tool_search`'s):
   * the whole output is in `message`, in the content store, and stays out of the workflow's history;
   * a read output is a preview when it is large. A result that could not be stored keeps its output
   * (a preview when it is large, with `storeError` saying why), for the workflow to store it.
   */
  outcome?: PackedToolOutcome;
  /**
   * The tool result message the model reads (the full rendered output, or its offload notice), as
   * stored: its key packed (`packStoredRef`), without its role (`tool`); absent when the content store stayed unavailable for the rest of the call's time (the
   * workflow then stores the message it renders from `outcome`, once the store is back).
   */
  message?: Packed<MessageRef, 'key' | 'bytes'>;
}

/** Input of {@link SessionActivities.executeTool}: the flags are left out when `false` (earlier workflows always sent them). */
export interface ExecuteToolInput extends TurnActivityInput {
  /** The call, packed, without its type (a call in its full form, as earlier versions sent it, is read as it is). */
  prepared: Omit<PackedPreparedCall, 'type'> & { type?: 'prepared-call' };
  /** Whether a human approved this call (its permission was `ask`). */
  approved?: boolean;
  /** Session turn of the call, part of its idempotency key. */
  turn: number;
  /** Whether the session is interactive. */
  interactive?: boolean;
  /** Whether the rules read this call's output: then it comes back (whole unless its text passes `resultOffloadBytes`); else it stays in the content store. */
  rulesReadOutput?: boolean;
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
  /** Seals the log's tail into a segment in the content store; returns the log with the new head and an empty tail. In parts, as `storeMessages`. */
  sealLog(...input: InputArguments<SealLogInput>): Promise<ConversationLog>;
  /** The identity of this worker's content store, which the session records when it starts. */
  identifyStore(input: SessionStoreInput): Promise<StoreIdentity>;
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
