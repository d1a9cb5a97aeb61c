import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4FunctionTool,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
  SharedV4ProviderMetadata,
  SharedV4ProviderOptions,
} from '@ai-sdk/provider';
import type { AssistantMessage, ProposedToolCall, ReasoningBlock } from './conversation-message';
import { isStrictCompatibleSchema } from './is-strict-compatible-schema';
import { toLanguageModelPrompt } from './language-model-prompt';
import { ModelError } from './model-error';
import { ModelErrorCode } from './model-error-code';
import { abortedModelError } from './model-errors';
import type { ModelRequest, ModelToolSpec } from './model-request';
import type { ModelFinishReason, ModelResponse, ModelUsage } from './model-response';
import { toolrailProviderOptionsKey } from '../model-settings';
import type { ProviderMetadata } from './provider-metadata';
import { parseToolCallArguments } from './tool-call-arguments';

/*
 * One model call through the AI SDK's provider interface, top to bottom: the request as call
 * options, `doGenerate` or `doStream`, and the result (content parts or stream parts) as the
 * session's response and the assistant message to store. No loop: the session workflow is the loop.
 */

/** Options of {@link callLanguageModel}. */
export interface CallLanguageModelOptions {
  model: LanguageModelV4;
  request: ModelRequest;
  /** Use `doStream` (text arrives in deltas) instead of `doGenerate`. */
  stream?: boolean;
  /** Aborting it aborts the call (the provider closes its HTTP request); the call rejects with `ABORTED`. */
  abortSignal: AbortSignal;
  /** Called as each stream part arrives (the model activity heartbeats there). */
  onChunk?: () => void;
  /** Called with each text delta as it arrives when streaming; once with the whole text otherwise. */
  onTextDelta?: (delta: string) => void;
}

/** What one model call produced. */
export interface LanguageModelCallResult {
  /** The response as the session records it (plain JSON, small: it goes into Temporal history). */
  response: ModelResponse;
  /** The response as a conversation message, with what the provider needs back later (reasoning, metadata). */
  assistant: AssistantMessage;
  /** The response's id and model as the provider reported them, when it did. */
  responseId?: string;
  responseModel?: string;
}

/**
 * Calls `model` once with `request` and reads what it answered. Tool calls get ids that are
 * non-empty and distinct within the response (`call_<turn>_<index>` where the provider's are not);
 * their arguments are parsed with `parseToolCallArguments` (JSON text, an object, or an empty
 * string). A finish the provider reports as an error, or a stream that ends before the model
 * finished, is a retryable `ModelError`; an abort rejects with `ABORTED`. Other failures reject with
 * what the provider threw (see `toModelError`).
 */
export async function callLanguageModel(options: CallLanguageModelOptions): Promise<LanguageModelCallResult> {
  const { model, request, abortSignal } = options;
  if (abortSignal.aborted) throw abortedModelError(model.provider, abortSignal);
  const callOptions = toCallOptions(request, abortSignal);
  const collected = options.stream
    ? await readStream(model, callOptions, options)
    : collectContent(await model.doGenerate(callOptions));
  if (!options.stream && collected.text !== '') options.onTextDelta?.(collected.text);
  return toCallResult(model, request.turn, collected);
}

/** The request as the provider interface's call options. */
function toCallOptions(request: ModelRequest, abortSignal: AbortSignal): LanguageModelV4CallOptions {
  const hasTools = request.tools.length > 0;
  const strictTools = request.strictTools;
  return {
    prompt: toLanguageModelPrompt(request.system, request.messages),
    ...(hasTools && {
      tools: request.tools.map((tool) => toFunctionTool(tool, strictTools)),
      toolChoice: { type: 'auto' },
    }),
    ...pickDefined(request, [
      'maxOutputTokens',
      'temperature',
      'topP',
      'topK',
      'stopSequences',
      'seed',
      'presencePenalty',
      'frequencyPenalty',
      'reasoning',
    ]),
    providerOptions: toProviderOptions(request, hasTools),
    abortSignal,
  };
}

/** The fields of `request` that are set (the call options take no explicit `undefined`). */
function pickDefined<K extends keyof ModelRequest>(
  request: ModelRequest,
  keys: readonly K[],
): { [Key in K]?: Exclude<ModelRequest[Key], undefined> } {
  const picked: { [Key in K]?: Exclude<ModelRequest[Key], undefined> } = {};
  for (const key of keys) {
    const value = request[key];
    if (value !== undefined) picked[key] = value as Exclude<ModelRequest[K], undefined>;
  }
  return picked;
}

function toFunctionTool(tool: ModelToolSpec, strictTools: boolean | 'auto' | undefined): LanguageModelV4FunctionTool {
  const strict = strictTools === 'auto' ? isStrictCompatibleSchema(tool.inputSchema) : strictTools;
  return {
    type: 'function',
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(strict !== undefined && { strict }),
  };
}

/**
 * The session's provider options, `parallelToolCalls` in each official provider's terms (the
 * session's own provider options win), and `toolrail: { sessionId, turn }` for models that want to
 * know where they are (the scripted model picks its answer by `turn`).
 */
function toProviderOptions(request: ModelRequest, hasTools: boolean): SharedV4ProviderOptions {
  const own = (request.providerOptions ?? {}) as SharedV4ProviderOptions;
  const parallel = request.parallelToolCalls;
  return {
    ...own,
    ...(hasTools &&
      parallel !== undefined && {
        openai: { parallelToolCalls: parallel, ...own.openai },
        anthropic: { disableParallelToolUse: !parallel, ...own.anthropic },
      }),
    [toolrailProviderOptionsKey]: {
      turn: request.turn,
      ...(request.sessionId !== undefined && { sessionId: request.sessionId }),
    },
  };
}

/** What a call produced, in the order it arrived. */
interface Collected {
  text: string;
  reasoning: ReasoningBlock[];
  toolCalls: { call: ProposedToolCall; metadata?: ProviderMetadata }[];
  finishReason: LanguageModelV4FinishReason | undefined;
  usage: LanguageModelV4Usage | undefined;
  responseId?: string;
  responseModel?: string;
}

function collectContent(result: {
  content: LanguageModelV4Content[];
  finishReason: LanguageModelV4FinishReason;
  usage: LanguageModelV4Usage;
  response?: { id?: string; modelId?: string };
}): Collected {
  const collected: Collected = {
    text: '',
    reasoning: [],
    toolCalls: [],
    finishReason: result.finishReason,
    usage: result.usage,
    ...(result.response?.id !== undefined && { responseId: result.response.id }),
    ...(result.response?.modelId !== undefined && { responseModel: result.response.modelId }),
  };
  for (const part of result.content) {
    if (part.type === 'text') collected.text += part.text;
    else if (part.type === 'reasoning') collected.reasoning.push(reasoningBlock(part.text, part.providerMetadata));
    else if (part.type === 'tool-call' && !part.providerExecuted) addToolCall(collected, part);
  }
  return collected;
}

function reasoningBlock(text: string, metadata: SharedV4ProviderMetadata | undefined): ReasoningBlock {
  return { text, ...(metadata !== undefined && { providerMetadata: metadata as ProviderMetadata }) };
}

function addToolCall(
  collected: Collected,
  part: { toolCallId: string; toolName: string; input: unknown; providerMetadata?: SharedV4ProviderMetadata },
): void {
  collected.toolCalls.push({
    call: { id: part.toolCallId, name: part.toolName, args: parseToolCallArguments(part.input) },
    ...(part.providerMetadata !== undefined && { metadata: part.providerMetadata as ProviderMetadata }),
  });
}

/**
 * Reads a `doStream` answer part by part: text deltas go to `onTextDelta` as they arrive, every
 * part to `onChunk`; reasoning blocks keep the provider metadata their start, deltas and end carry
 * (Anthropic sends a block's signature in a delta). An abort cancels the stream at once, even one
 * that does not watch the signal itself.
 */
async function readStream(
  model: LanguageModelV4,
  callOptions: LanguageModelV4CallOptions,
  { abortSignal, onChunk, onTextDelta }: CallLanguageModelOptions,
): Promise<Collected> {
  const { stream } = await model.doStream(callOptions);
  const reader = stream.getReader();
  const cancel = (): void => void reader.cancel(abortSignal.reason).catch(() => undefined);
  abortSignal.addEventListener('abort', cancel, { once: true });
  const collected: Collected = { text: '', reasoning: [], toolCalls: [], finishReason: undefined, usage: undefined };
  const reasoningById = new Map<string, ReasoningBlock>();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (abortSignal.aborted) throw abortedModelError(model.provider, abortSignal);
      if (done) break;
      onChunk?.();
      readStreamPart(value, collected, reasoningById, onTextDelta);
    }
  } finally {
    abortSignal.removeEventListener('abort', cancel);
    reader.releaseLock();
  }
  return collected;
}

function readStreamPart(
  part: LanguageModelV4StreamPart,
  collected: Collected,
  reasoningById: Map<string, ReasoningBlock>,
  onTextDelta: ((delta: string) => void) | undefined,
): void {
  switch (part.type) {
    case 'text-delta':
      collected.text += part.delta;
      if (part.delta !== '') onTextDelta?.(part.delta);
      return;
    case 'reasoning-start': {
      const block = reasoningBlock('', part.providerMetadata);
      reasoningById.set(part.id, block);
      collected.reasoning.push(block);
      return;
    }
    case 'reasoning-delta':
    case 'reasoning-end': {
      const block = reasoningById.get(part.id);
      if (block === undefined) return;
      if (part.type === 'reasoning-delta') block.text += part.delta;
      if (part.providerMetadata !== undefined)
        block.providerMetadata = mergeMetadata(block.providerMetadata, part.providerMetadata);
      return;
    }
    case 'tool-call':
      if (!part.providerExecuted) addToolCall(collected, part);
      return;
    case 'response-metadata':
      if (part.id !== undefined) collected.responseId = part.id;
      if (part.modelId !== undefined) collected.responseModel = part.modelId;
      return;
    case 'finish':
      collected.finishReason = part.finishReason;
      collected.usage = part.usage;
      return;
    case 'error':
      throw part.error;
    default:
      return;
  }
}

function mergeMetadata(into: ProviderMetadata | undefined, from: SharedV4ProviderMetadata): ProviderMetadata {
  const merged: ProviderMetadata = { ...into };
  for (const [provider, values] of Object.entries(from))
    merged[provider] = { ...merged[provider], ...values } as ProviderMetadata[string];
  return merged;
}

/** The collected answer as the session's response and the message to store. */
function toCallResult(model: LanguageModelV4, turn: number, collected: Collected): LanguageModelCallResult {
  if (collected.finishReason === undefined) {
    throw new ModelError({
      code: ModelErrorCode.INVALID_RESPONSE,
      message: 'the response stream ended before the model finished',
      provider: model.provider,
    });
  }
  const calls = withDistinctCallIds(
    collected.toolCalls.map(({ call }) => call),
    turn,
  );
  const metadata: Record<string, ProviderMetadata> = {};
  collected.toolCalls.forEach(({ metadata: callMetadata }, index) => {
    const id = calls[index]?.id;
    if (callMetadata !== undefined && id !== undefined) metadata[id] = callMetadata;
  });
  const finishReason = toModelFinishReason(collected.finishReason, calls.length > 0, model.provider);
  const usage = toModelUsage(collected.usage);
  const text = collected.text === '' ? undefined : collected.text;
  const reasoning = collected.reasoning.filter((block) => block.text !== '' || block.providerMetadata !== undefined);
  return {
    response: {
      ...(text !== undefined && { text }),
      toolCalls: calls,
      finishReason,
      ...(collected.finishReason.raw !== undefined && { rawFinishReason: collected.finishReason.raw }),
      ...(usage !== undefined && { usage }),
    },
    assistant: {
      role: 'assistant',
      ...(text !== undefined && { text }),
      toolCalls: calls,
      ...(reasoning.length > 0 && { reasoning }),
      ...(Object.keys(metadata).length > 0 && { toolCallMetadata: metadata }),
    },
    ...(collected.responseId !== undefined && { responseId: collected.responseId }),
    ...(collected.responseModel !== undefined && { responseModel: collected.responseModel }),
  };
}

/**
 * The provider interface's finish reason in toolrail's terms (see {@link ModelFinishReason}). The
 * raw reason tells a refusal (`refusal`, or OpenAI's refusal message, which ends `stop`) from the
 * content filter, and Anthropic's `pause_turn` from a plain stop. A finish reported as an error, or
 * as interrupted (the stream ended without one), fails the call with a retryable error.
 */
export function toModelFinishReason(
  finish: LanguageModelV4FinishReason,
  hasToolCalls: boolean,
  provider: string,
): ModelFinishReason {
  switch (finish.unified) {
    case 'tool-calls':
      return 'tool-calls';
    case 'length':
      return 'length';
    case 'content-filter':
      return finish.raw === undefined || finish.raw === 'stop' || finish.raw === 'refusal'
        ? 'refusal'
        : 'content-filter';
    case 'stop':
      if (finish.raw === 'pause_turn') return 'pause';
      return hasToolCalls ? 'tool-calls' : 'stop';
    case 'other':
      return hasToolCalls ? 'tool-calls' : 'other';
    case 'error':
      throw new ModelError({
        code: ModelErrorCode.SERVER_ERROR,
        message: `the provider reported an error while generating${finish.raw ? ` (${finish.raw})` : ''}`,
        provider,
      });
    case 'interrupted':
      throw new ModelError({
        code: ModelErrorCode.INVALID_RESPONSE,
        message: 'the response ended before the model finished',
        provider,
      });
  }
}

/** The provider interface's usage in toolrail's terms; `undefined` when the provider reported no totals. */
export function toModelUsage(usage: LanguageModelV4Usage | undefined): ModelUsage | undefined {
  if (usage === undefined) return undefined;
  const { inputTokens, outputTokens } = usage;
  const input = inputTokens.total ?? sumDefined(inputTokens.noCache, inputTokens.cacheRead, inputTokens.cacheWrite);
  const output = outputTokens.total ?? sumDefined(outputTokens.text, outputTokens.reasoning);
  if (input === undefined && output === undefined) return undefined;
  return {
    inputTokens: input ?? 0,
    outputTokens: output ?? 0,
    ...(inputTokens.cacheRead !== undefined && { cachedInputTokens: inputTokens.cacheRead }),
    ...(inputTokens.cacheWrite !== undefined && { cacheWriteInputTokens: inputTokens.cacheWrite }),
    ...(outputTokens.reasoning !== undefined && { reasoningTokens: outputTokens.reasoning }),
  };
}

function sumDefined(...values: (number | undefined)[]): number | undefined {
  const defined = values.filter((value) => value !== undefined);
  return defined.length === 0 ? undefined : defined.reduce((sum, value) => sum + value, 0);
}

/**
 * The calls with ids that are non-empty and distinct: a missing, empty or repeated id (a custom
 * model's, or a provider's that repeats them) becomes `call_<turn>_<index>`, suffixed until it is
 * distinct too. The model sees the ids as given here, so each result still answers its own call.
 */
export function withDistinctCallIds(calls: readonly ProposedToolCall[], turn: number): ProposedToolCall[] {
  const taken = new Set<string>();
  return calls.map((call, index) => {
    let id = typeof call.id === 'string' && call.id !== '' && !taken.has(call.id) ? call.id : `call_${turn}_${index}`;
    for (let suffix = 2; taken.has(id); suffix += 1) id = `call_${turn}_${index}_${suffix}`;
    taken.add(id);
    return id === call.id ? call : { ...call, id };
  });
}
