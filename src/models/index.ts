/**
 * The model layer, on the AI SDK's provider interface (`LanguageModelV4` of `@ai-sdk/provider`):
 * which model a session's settings name and how it is built (`createModelResolver`: models given to
 * the worker, a provider registry, or the official `@ai-sdk/openai` and `@ai-sdk/anthropic`
 * providers), one call of it (`callLanguageModel`: `doGenerate` or `doStream`), the conversation in
 * the interface's terms, errors with stable codes, and a scripted model that is a `LanguageModelV4`
 * too. What the workflow sees of it (responses, finish reasons, usage) is plain JSON.
 */
export type { JsonSchemaObject, ModelRequest, ModelToolSpec } from './model-request';
export type { ModelFinishReason, ModelResponse, ModelUsage } from './model-response';
export type {
  AssistantMessage,
  ConversationMessage,
  ProposedToolCall,
  ReasoningBlock,
  ToolResultMessage,
  UserMessage,
} from './conversation-message';
export type { ProviderMetadata } from './provider-metadata';

export { ModelError, type ModelErrorDetails, type ModelErrorOptions } from './model-error';
export { ModelErrorCode, isRetryableModelErrorCode } from './model-error-code';
export { modelErrorToApplicationFailure } from './model-error-to-application-failure';
export { toModelError, type ToModelErrorOptions } from './model-errors';

export {
  createModelResolver,
  type LanguageModelRegistry,
  type ModelResolverOptions,
  type ResolvedModel,
  type WorkerModel,
  type WorkerModels,
} from './create-model-resolver';
export {
  callLanguageModel,
  toModelFinishReason,
  toModelUsage,
  withDistinctCallIds,
  type CallLanguageModelOptions,
  type LanguageModelCallResult,
} from './call-language-model';
export { fromLanguageModelPrompt, toLanguageModelPrompt } from './language-model-prompt';
export { toolArgumentsAsTextFetch } from './tool-arguments-as-text-fetch';

export {
  createScriptedModel,
  type ScriptStep,
  type ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedResponder,
} from './scripted-model';
export {
  parallelToolCallsResponse,
  textResponse,
  toolCallResponse,
  type ScriptedResponse,
  type ScriptedResponseOptions,
  type ScriptedToolCall,
} from './scripted-response';
export { latestToolResults } from './latest-tool-results';
export { parseToolCallArguments } from './tool-call-arguments';
export { isStrictCompatibleSchema } from './is-strict-compatible-schema';
export type { LanguageModelV4 } from '@ai-sdk/provider';
