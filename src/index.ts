/**
 * toolrail's public API: define tools (local or from an MCP server), load rules, run workers, start
 * and drive sessions, pick a model, and check rules offline with the simulator. Everything a user
 * needs is exported here; anything not exported is internal and may change without notice. Test
 * helpers (the dev server, the scripted model) are also in `toolrail/testing`.
 * @module
 */

// Tools.
export { defineTool, ToolRegistry } from './tools';
export type {
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
} from './tools';
export { ConcurrencyClass } from './dispatch/prepared-call';
export type { InterruptBehavior, PermissionBehavior } from './dispatch/prepared-call';
export type { ToolOutcome, ToolErrorOutcome, ToolResultOutcome } from './dispatch/tool-outcome';
export { DEFAULT_TOOL_TIMEOUT_MS, DEFAULT_MAX_RESULT_SIZE_CHARS } from './tools';

// The MCP bridge.
export { connectMcpServer, syncMcpTools, McpServerConnection } from './tools/mcp';
export type {
  ConnectMcpServerOptions,
  McpToolList,
  SkippedMcpTool,
  McpToolSync,
  McpTransportOptions,
} from './tools/mcp';

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
export { ToolErrorCode } from './dispatch/tool-error-code';
export { ModelError, ModelErrorCode } from './models';
export { TemporalCliNotFoundError } from './devserver/temporal-cli-not-found-error';
export { ReasonCode } from './rules';
export { ToolrailError } from './kernel';
export { ContentStoreError } from './store';
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

// Models and adapters.
export {
  createModelAdapter,
  createOpenAIChatModel,
  createAnthropicMessagesModel,
  createScriptedModel,
  textResponse,
  toolCallResponse,
  parallelToolCallsResponse,
} from './models';
export type {
  ModelAdapter,
  ModelCallOptions,
  ModelRequest,
  ModelResponse,
  ModelSettings,
  ModelProvider,
  ConversationMessage,
  OpenAIChatModelOptions,
  AnthropicMessagesModelOptions,
  CreateModelAdapterOptions,
  ScriptStep,
  ScriptedModel,
  ScriptedModelOptions,
  ScriptedResponse,
} from './models';

// Where sessions' conversations live.
export { openContentStore, DirectoryContentStore, PostgresContentStore, createExternalStorage } from './store';
export type { ContentStore, ContentRef } from './store';

// Workers.
export { createWorker } from './worker/create-worker';
export type { CreateWorkerOptions } from './worker/create-worker';
export { bundleSessionWorkflows } from './worker/bundle-session-workflows';
export { workflowsPath } from './worker/workflows-path';
export type { ToolrailWorkerModule } from './worker/worker-module';

// The client and the session handle.
export { ToolrailClient } from './client/toolrail-client';
export type { StartSessionOptions, SessionListing } from './client/toolrail-client';
export { SessionHandle } from './client/session-handle';
export * from './session/session-messages';
export type { SessionInput, SessionLimits, SiblingAbort } from './session/session-input';
export type { RunEndReason } from './session/session-status';
export type {
  SessionRuleStateView,
  SessionStatusView,
  TranscriptEntry,
  PendingApproval,
  RunningCall,
  ModelContextView,
} from './session/session-views';

// Tracing (OpenTelemetry) and what-if over recorded sessions.
export { bundleTracedSessionWorkflows } from './worker/bundle-traced-workflows';
export type { TracingOptions } from './tracing/tracing-options';
export { readTranscript } from './tracing/read-transcript';
export { recordedTrace } from './tracing/recorded-trace';
export type { ReadToolContent } from './tracing/read-transcript';
export { SessionStatus } from './session/session-status';
export { renderTranscriptEntry } from './cli/render/render-transcript-entry';
export { toolrailSearchAttributes } from './session/search-attributes';

// The dev server.
export { startDevServer } from './devserver/start-dev-server';
export type { DevServer, StartDevServerOptions } from './devserver/start-dev-server';
