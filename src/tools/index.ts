/**
 * Typed tools with fail-closed metadata, the registry, the per-turn catalog, deferred tools and
 * `tool_search`, and the two halves of the call lifecycle. Node side (may do I/O).
 * @module
 */
export { buildToolCatalog } from './catalog/build-tool-catalog';
export type { BuildToolCatalogOptions } from './catalog/build-tool-catalog';
export { activityTool } from './activity-tool';
export type { ActivityToolDefinition } from './activity-tool';
export { defineTool } from './define-tool';
export { describeError } from './describe-error';
export { ToolAbortError } from './errors/tool-abort-error';
export type { ToolAbortCode } from './errors/tool-abort-error';
export { ToolDefinitionError } from './errors/tool-definition-error';
export { ToolExecutionError } from './errors/tool-execution-error';
export { ToolRegistrationError, ToolRegistrationRefusal } from './errors/tool-registration-error';
export { isDeferred } from './is-deferred';
export type { AfterAbort } from './lifecycle/after-abort';
export { executePreparedCall } from './lifecycle/execute-prepared-call';
export type { ExecutePreparedCallOptions } from './lifecycle/execute-prepared-call';
export { prepareToolCall } from './lifecycle/prepare-tool-call';
export type { PrepareToolCallOptions } from './lifecycle/prepare-tool-call';
export type { ProposedToolCall } from '../models';
export type {
  PostToolHook,
  PostToolHookEvent,
  PreToolHook,
  PreToolHookEvent,
  PreToolHookResult,
  ToolHooks,
} from './lifecycle/tool-hooks';
export type { ToolSessionContext } from './lifecycle/tool-session-context';
export { flattenJsonSchema } from './schema/flatten-json-schema';
export { SchemaFlatteningError } from './schema/schema-flattening-error';
export { toPortableJsonSchema } from './schema/to-portable-json-schema';
export { toStrictJsonSchema } from './schema/to-strict-json-schema';
export type { AnyTool, Tool, ToolCallTraits, ToolOrigin } from './tool';
export type { ToolCallContext, ToolExecutionContext } from './tool-context';
export {
  AT_MOST_ONCE,
  DEFAULT_MAX_RESULT_SIZE_CHARS,
  DEFAULT_READ_ONLY_RETRY,
  DEFAULT_TOOL_TIMEOUT_MS,
  TOOL_SEARCH_NAME,
} from '../dispatch';
export { TOOL_NAME_PATTERN } from './tool-name-pattern';
export type { ToolDefinition } from './tool-definition';
export { ToolRegistry } from './tool-registry';
export type { ResolvedTool, ToolSource } from './tool-registry';
export { MAX_TOOL_SEARCH_RESULTS } from './tool-search/create-tool-search-tool';
export type { InputValidation, PermissionDecision } from './tool-verdicts';
// The MCP bridge (src/tools/mcp).
export { McpServerConnection, McpServerError, connectMcpServer, syncMcpTools } from './mcp';
export type {
  ConnectMcpServerOptions,
  McpServerProblem,
  McpServerStatus,
  McpToolList,
  McpToolOptions,
  McpToolSync,
  McpTransportOptions,
  SkippedMcpTool,
} from './mcp';
