/**
 * Pure, deterministic dispatch helpers and shapes shared by the workflow and the Node side: batch
 * partitioning, prepared calls, outcomes and their stable error codes, the catalog shape, the tool
 * defaults and retry policy, the `tool_search` name, JSON types and activity arguments sent in parts.
 * @module
 */
export { approvalReason } from './approval-reason';
export { createToolErrorOutcome, MAX_TOOL_ERROR_MESSAGE_CHARS } from './create-tool-error-outcome';
export type { CreateToolErrorOutcomeOptions } from './create-tool-error-outcome';
export { formatRuleRefusal } from './format-rule-refusal';
export type { RefusalReason } from './format-rule-refusal';
export { formatToolIssues } from './format-tool-issues';
export { CALL_CANCELLED_FAILURE_TYPE, outcomeFromActivityFailure } from './outcome-from-activity-failure';
export type { CallCanceller, CompletionLookup } from './outcome-from-activity-failure';
export { isRecordedCall, mayHaveLostCompletion } from './lost-completion';
export { partitionCalls } from './partition-calls';
export type { PartitionCallsOptions, ToolCallBatch } from './partition-calls';
export { ConcurrencyClass } from './prepared-call';
export type {
  ActivityToolTarget,
  InterruptBehavior,
  PermissionBehavior,
  PreparedCall,
  ToolExecutionOptions,
} from './prepared-call';
export { readRevealedTools } from './read-revealed-tools';
export { refusePreparedCall, refuseUnapprovedCall } from './refuse-prepared-call';
export type { PreparedCallRefusal, UnapprovedDecision } from './refuse-prepared-call';
export { renderToolOutcome, toolResultMessage } from './render-tool-outcome';
export { shouldRetryToolOutcome } from './should-retry-tool-outcome';
export type { ShouldRetryToolOutcomeOptions } from './should-retry-tool-outcome';
export type { CatalogTool, CatalogToolFlags, HeldToolCatalog, ToolCatalog } from './tool-catalog';
export { heldCatalog } from './tool-catalog';
export { isToolErrorCode, ToolErrorCode } from './tool-error-code';
export type { ToolIssue } from './tool-issue';
export type { ToolErrorOutcome, ToolOutcome, ToolResultOutcome } from './tool-outcome';
export { DEFAULT_TOOL_HEARTBEAT_TIMEOUT_MS, toolActivityOptions } from './tool-activity-options';
export { isVisibleInMask, visibleToolMask } from './visible-tool-mask';
export {
  AT_MOST_ONCE,
  DEFAULT_MAX_RESULT_SIZE_CHARS,
  DEFAULT_MAX_TOOL_CONCURRENCY,
  DEFAULT_READ_ONLY_RETRY,
  DEFAULT_TOOL_TIMEOUT_MS,
  TOOL_RESULT_STORE_MARGIN_MS,
} from './defaults';
export type { InputArguments, InputParts } from './input-arguments';
export { inputArguments, inputOf } from './input-arguments';
export type { JsonObject, JsonValue } from './json-value';
export type { ToolRetryPolicy } from './tool-retry-policy';
export { TOOL_SEARCH_NAME } from './tool-search-name';
