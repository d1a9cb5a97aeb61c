/**
 * The model layer: one provider-neutral {@link ModelAdapter} interface, adapters for
 * OpenAI-compatible chat completions and the Anthropic Messages API, and a scripted model.
 * Requests and responses are plain JSON, so they can travel through Temporal history.
 */
export type { ModelAdapter, ModelCallOptions } from './model-adapter';
export type { JsonSchemaObject, ModelRequest, ModelToolSpec } from './model-request';
export type { ModelResponse, ModelStopReason, ModelUsage } from './model-response';
export type {
  AssistantMessage,
  ConversationMessage,
  ProposedToolCall,
  ToolResultMessage,
  UserMessage,
} from './conversation-message';

export { ModelError, type ModelErrorDetails, type ModelErrorOptions } from './model-error';
export { ModelErrorCode, isRetryableModelErrorCode } from './model-error-code';
export { modelErrorToApplicationFailure } from './model-error-to-application-failure';

export { createOpenAIChatModel, type OpenAIChatModelOptions } from './openai-chat-model';
export { createAnthropicMessagesModel, type AnthropicMessagesModelOptions } from './anthropic-messages-model';
export { createModelAdapter, type CreateModelAdapterOptions } from './create-model-adapter';
export { modelSettingsSchema, type ModelProvider, type ModelSettings } from './model-settings';

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
