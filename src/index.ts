/**
 * toolrail's public API: define tools (local or from an MCP server), load rules, run workers, start
 * and drive sessions, pick a model, and check rules offline with the simulator. Everything an
 * application needs is exported here; anything not exported is internal and may change without
 * notice. Test helpers (the dev server, the scripted model) are in `toolrail/testing` only.
 * @module
 */

// Tools.
export { activityTool, defineTool, ToolRegistry } from './tools';
export type {
  ActivityToolDefinition,
  AnyTool,
  Tool,
  ToolDefinition,
  ToolCallContext,
  ToolExecutionContext,
  ToolHooks,
  PreToolHook,
  PreToolHookEvent,
  PreToolHookResult,
  PostToolHook,
  PostToolHookEvent,
  InputValidation,
  PermissionDecision,
  ToolOrigin,
  ToolSource,
} from './tools';
export { ConcurrencyClass } from './dispatch';
export type { ActivityToolTarget, InterruptBehavior, PermissionBehavior } from './dispatch';
export type { ToolOutcome, ToolErrorOutcome, ToolResultOutcome } from './dispatch';
export { DEFAULT_TOOL_TIMEOUT_MS, DEFAULT_MAX_RESULT_SIZE_CHARS } from './tools';

// The MCP bridge.
export { connectMcpServer, syncMcpTools, McpServerConnection, McpServerError } from './tools';
export type {
  ConnectMcpServerOptions,
  McpServerProblem,
  McpServerStatus,
  McpToolList,
  McpToolOptions,
  SkippedMcpTool,
  McpToolSync,
  McpTransportOptions,
} from './tools';

// Errors and their codes.
export {
  ToolDefinitionError,
  ToolExecutionError,
  ToolAbortError,
  ToolRegistrationError,
  ToolRegistrationRefusal,
  SchemaFlatteningError,
} from './tools';
export type { ToolAbortCode } from './tools';
export { ToolErrorCode } from './dispatch';
export { ModelError, ModelErrorCode } from './models';
export { ReasonCode } from './rules';
export { ToolrailError } from './errors';
export { ClaimUnavailableError, ContentStoreError, ExternalStorageUnusableError } from './store';
export type { ContentStoreErrorCode } from './store';

// Rules: loading, compiling, the simulator, graphs.
export { loadRuleSet, loadRuleDocuments, loadTrace } from './rules-files';
export type { LoadRuleSetOptions, LoadRuleSetResult, LoadTraceResult } from './rules-files';
export { compileRuleSet, simulateTrace, renderRuleGraph, formatDiagnostic, describeRuleState } from './rules';
export type {
  CompiledRuleSet,
  CompileRuleSetInput,
  CompileRuleSetResult,
  RuleState,
  RuleStateView,
  Reason,
  RuleRef,
  RuleDiagnostic,
  Trace,
  TraceEvent,
  SimulationResult,
  SimulationLine,
  SimulatedCall,
  GraphFormat,
} from './rules';

// Models: any AI SDK language model (LanguageModelV4) or a built-in official provider (the scripted
// model is in toolrail/testing).
export { toolArgumentsAsTextFetch } from './models';
export type {
  LanguageModelV4,
  LanguageModelRegistry,
  WorkerModel,
  WorkerModels,
  ModelRequest,
  ModelResponse,
  ModelFinishReason,
  ModelUsage,
  ConversationMessage,
} from './models';
export { parseModelSettings, modelSettingsSchema } from './model-settings';
export type {
  ModelSettings,
  RegisteredModelSettings,
  BuiltInModelSettings,
  GenerationSettings,
  ModelProvider,
} from './model-settings';
export type { ModelTextDelta } from '../activities';

// Where sessions' conversations live.
export {
  openContentStore,
  DirectoryContentStore,
  PostgresContentStore,
  createExternalStorage,
  encodedContent,
} from './store';
export type {
  ContentStore,
  ContentRef,
  EncodedContent,
  EncodedContentOptions,
  StoreIdentity,
  StoredSession,
} from './store';

// Workers: the plugin for the user's own worker, a worker of toolrail's own, prebuilt bundles.
export {
  createWorker,
  toolrailPlugin,
  ToolrailPlugin,
  ToolrailPluginError,
  ToolrailPluginErrorCode,
  bundleSessionWorkflows,
  bundleTracedSessionWorkflows,
  workflowsPath,
} from './worker';
export type { CreateWorkerOptions, ToolrailPluginOptions, SessionBundleOptions, ToolrailWorkerModule } from './worker';

// The client and the session handle.
export { ToolrailClient } from './client';
export type { StartSessionOptions, SessionListing, SendOrStartOptions } from './client';
export { SessionHandle } from './client';
// The live feed: a session's events as they happen, and the reply to a message.
export { FeedGapError, SentMessage, uiMessageChunker } from './client';
export type {
  ChunkOptions,
  OffloadedToolOutput,
  RunReply,
  SessionEventsOptions,
  UIFinishReason,
  UIMessageChunk,
  UIMessageChunkerOptions,
} from './client';
// A session behind useChat: the route handler of the AI SDK's DefaultChatTransport, and Node's http adapter.
export { createChatHandler, ChatRequestError, toNodeListener } from './client';
export type { ChatHandler, ChatHandlerOptions, ChatRequestErrorCode, ChatStartOptions } from './client';
export type {
  FeedApproval,
  FeedCall,
  FeedEvent,
  FeedEventOf,
  FeedEventType,
  FeedPage,
  FeedReason,
  FeedRequest,
  FeedResult,
  FeedValue,
  ShadowReasonView,
  ShadowVerdict,
  ShadowVerdictKind,
  ModelTextInput,
  SentUserMessage,
} from './session';
// The live channel beside the durable feed: text as it is written, events without a query, fast cancellations.
export {
  LiveChannelError,
  LocalLiveChannel,
  PostgresLiveChannel,
  defaultLocalLiveDirectory,
  openLiveChannel,
} from './live';
export type {
  LiveChannel,
  LiveChannelErrorCode,
  LiveListener,
  LiveMessage,
  LiveState,
  LiveSubscription,
  LocalLiveChannelOptions,
  OpenLiveChannelOptions,
  PostgresLiveChannelOptions,
} from './live';
export { pruneSessions } from './client';
export type { PruneReport, PruneSessionsOptions, PrunedSession } from './client';
// The session's signals, updates and queries, for a plain Temporal client.
export {
  interruptSignal,
  userMessageSignal,
  sendUserMessageUpdate,
  endSessionSignal,
  approveToolCallUpdate,
  ruleStateQuery,
  transcriptQuery,
  statusQuery,
  feedQuery,
  modelTextSignal,
} from './session';
export type { InterruptInput, UserMessageInput, ApproveToolCallInput } from './session';
export type { SessionInput, SessionLimits, SiblingAbort } from './session';
// The start input's check (the workflow runs the same), its zod and JSON Schemas, and the answers' pages.
export { checkSessionInput, sessionStartInputSchema, sessionInputJsonSchema, SessionInputError } from './session';
export type { InputProblem, SessionInputCheck } from './session';
export { mergeRuleStatePages, sessionMessageNames } from './session';
export type { PageRequest, PagedTranscriptEntry, RuleStatePage, TranscriptPage } from './session';
export type { RunEndReason, SessionUsage, UsageTotals } from './session';
export { StoreFailureType } from './session';
export type { StoreProblem } from './session';
export type {
  SessionRuleStateView,
  SessionStatusView,
  TranscriptEntry,
  PendingApproval,
  RunningCall,
  UnavailableTool,
  ModelContextView,
} from './session';

// Tracing (OpenTelemetry) and what-if over recorded sessions.
export type { TracingOptions } from './tracing';
export { readTranscript, recordedTrace } from './tracing';
export type { ReadToolContent } from './tracing';
export { listedSessionStatuses, SessionStatus, toolrailSearchAttributes } from './session';
export type { ListedSessionStatus } from './session';

// A feed event as one line of text, as `toolrail follow` prints it (for logs and terminal UIs).
export { renderFeedEvent } from './cli';
