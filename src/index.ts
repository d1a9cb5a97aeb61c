/**
 * toolrail's public API: define tools, load rules, run workers, start and drive sessions.
 * @module
 */
export { defineTool, ToolRegistry, ToolExecutionError, ToolAbortError, buildToolCatalog } from './tools';
export type {
  AnyTool,
  Tool,
  ToolDefinition,
  ToolCallContext,
  ToolExecutionContext,
  ToolHooks,
  PreToolHook,
  PostToolHook,
} from './tools';
export { ConcurrencyClass } from './dispatch/prepared-call';
export type { PreparedCall, InterruptBehavior, PermissionBehavior } from './dispatch/prepared-call';
export { ToolErrorCode } from './dispatch/tool-error-code';
export type { ToolOutcome, ToolErrorOutcome, ToolResultOutcome } from './dispatch/tool-outcome';
export { partitionCalls } from './dispatch/partition-calls';
export { loadRuleSet, loadRuleDocuments, loadTrace } from './rules-files';
export {
  compileRuleSet,
  initialRuleState,
  startRun,
  beginTurn,
  narrow,
  validate,
  record,
  checkEnd,
  isRunEnded,
  describeRuleState,
  simulateTrace,
  renderRuleGraph,
  ReasonCode,
} from './rules';
export type { CompiledRuleSet, RuleState, Reason, RuleRef, RuleDiagnostic, RuleStateView } from './rules';
export {
  createModelAdapter,
  createOpenAIChatModel,
  createAnthropicMessagesModel,
  createScriptedModel,
  textResponse,
  toolCallResponse,
  parallelToolCallsResponse,
  ModelError,
  ModelErrorCode,
} from './models';
export type {
  ModelAdapter,
  ModelRequest,
  ModelResponse,
  ModelSettings,
  ConversationMessage,
  ScriptStep,
} from './models';
export { createWorker } from './worker/create-worker';
export type { CreateWorkerOptions } from './worker/create-worker';
export { bundleSessionWorkflows } from './worker/bundle-session-workflows';
export type { ToolrailWorkerModule } from './worker/worker-module';
export { ToolrailClient } from './client/toolrail-client';
export type { StartSessionOptions, SessionListing } from './client/toolrail-client';
export { SessionHandle } from './client/session-handle';
export * from './session/session-messages';
export type { SessionInput, SessionLimits, SiblingAbort } from './session/session-input';
export type {
  SessionRuleStateView,
  SessionStatusView,
  TranscriptEntry,
  PendingApproval,
  RunningCall,
} from './session/session-views';
export { SessionStatus } from './session/session-status';
export { toolrailSearchAttributes } from './session/search-attributes';
export { startDevServer } from './devserver/start-dev-server';
export type { DevServer, StartDevServerOptions } from './devserver/start-dev-server';
