import { trace } from '@opentelemetry/api';
import type { Attributes } from '@opentelemetry/api';
import type { LanguageModelV4, ModelRequest, ModelResponse } from '../src/models';

/*
 * OpenTelemetry's GenAI semantic conventions (`gen_ai.*`) on the spans Temporal's interceptors
 * open around the activities (`RunActivity:callModel`, `RunActivity:executeTool`), next to
 * toolrail's own attributes. Without tracing there is no active span and these do nothing.
 */

/** The provider's name as the conventions want it: the AI SDK's `openai.chat` → `openai`. */
function providerName(model: LanguageModelV4): string {
  return model.provider.split('.')[0] ?? model.provider;
}

/** Sets what a model call asks for on the active span. */
export function annotateModelRequest(model: LanguageModelV4, request: ModelRequest, stream: boolean): void {
  const span = trace.getActiveSpan();
  if (span === undefined) return;
  const provider = providerName(model);
  const attributes: Attributes = {
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': provider,
    'gen_ai.system': provider,
    'gen_ai.request.model': model.modelId,
    'toolrail.model.stream': stream,
    'toolrail.turn.index': request.turn,
  };
  if (request.sessionId !== undefined) {
    attributes['gen_ai.conversation.id'] = request.sessionId;
    attributes['toolrail.session.id'] = request.sessionId;
  }
  const optional: [string, number | string[] | undefined][] = [
    ['gen_ai.request.temperature', request.temperature],
    ['gen_ai.request.max_tokens', request.maxOutputTokens],
    ['gen_ai.request.top_p', request.topP],
    ['gen_ai.request.top_k', request.topK],
    ['gen_ai.request.seed', request.seed],
    ['gen_ai.request.presence_penalty', request.presencePenalty],
    ['gen_ai.request.frequency_penalty', request.frequencyPenalty],
    ['gen_ai.request.stop_sequences', request.stopSequences],
  ];
  for (const [name, value] of optional) if (value !== undefined) attributes[name] = value;
  span.setAttributes(attributes);
}

/** Sets what a model call answered on the active span: finish reason, usage, the response's id and model. */
export function annotateModelResponse(
  response: ModelResponse,
  reported: { responseId?: string; responseModel?: string },
): void {
  const span = trace.getActiveSpan();
  if (span === undefined) return;
  const attributes: Attributes = {
    'gen_ai.response.finish_reasons': [response.rawFinishReason ?? response.finishReason],
    'toolrail.model.finish_reason': response.finishReason,
    'toolrail.model.tool_calls': response.toolCalls.length,
  };
  if (reported.responseId !== undefined) attributes['gen_ai.response.id'] = reported.responseId;
  if (reported.responseModel !== undefined) attributes['gen_ai.response.model'] = reported.responseModel;
  const { usage } = response;
  if (usage !== undefined) {
    attributes['gen_ai.usage.input_tokens'] = usage.inputTokens;
    attributes['gen_ai.usage.output_tokens'] = usage.outputTokens;
    if (usage.cachedInputTokens !== undefined)
      attributes['gen_ai.usage.cache_read.input_tokens'] = usage.cachedInputTokens;
    if (usage.cacheWriteInputTokens !== undefined)
      attributes['gen_ai.usage.cache_creation.input_tokens'] = usage.cacheWriteInputTokens;
    if (usage.reasoningTokens !== undefined) attributes['toolrail.usage.reasoning_tokens'] = usage.reasoningTokens;
  }
  span.setAttributes(attributes);
}

/** Sets what a tool call is on the active span. */
export function annotateToolCall(sessionId: string, turn: number, callId: string, toolName: string): void {
  trace.getActiveSpan()?.setAttributes({
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': toolName,
    'gen_ai.tool.call.id': callId,
    'gen_ai.tool.type': 'function',
    'gen_ai.conversation.id': sessionId,
    'toolrail.session.id': sessionId,
    'toolrail.turn.index': turn,
    'toolrail.tool.name': toolName,
    'toolrail.tool.call_id': callId,
  });
}
