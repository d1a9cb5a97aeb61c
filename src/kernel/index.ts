/**
 * The shared kernel: what every part (rules, tools, dispatch, models, session, workflow) agrees on.
 * Pure and deterministic, no Node built-ins, so the workflow may import it.
 * @module
 */
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
export {
  buildModelSettingsSchema,
  builtInProviders,
  defaultContextBudgets,
  fallbackContextBudgetBytes,
  toolrailProviderOptionsKey,
} from './model-settings';
export { modelSettingsSchema, parseModelSettings } from './model-settings-schema';
export type {
  BuiltInModelSettings,
  GenerationSettings,
  ModelProvider,
  ModelSettings,
  RegisteredModelSettings,
} from './model-settings';
export { nearestName, suggestName } from './nearest-name';
export type { ProposedToolCall } from './proposed-tool-call';
export type { ToolRetryPolicy } from './tool-retry-policy';
export { ToolrailError } from './toolrail-error';
export { toolrailVersion } from './toolrail-version';
export { zod } from './zod-on-first-use';
export type { ToolrailErrorOptions } from './toolrail-error';
export { TOOL_SEARCH_NAME } from './tool-search-name';
export { previewChars, previewOf, truncateUtf8, utf8ByteLength } from './utf8';
export { unreadableClaimEncoding, unreadableResultFailureType } from './unreadable-claim';
export type { UnreadableClaim, UnreadableClaimCode } from './unreadable-claim';
