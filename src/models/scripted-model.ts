import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { fromLanguageModelPrompt } from './language-model-prompt';
import { ModelError } from './model-error';
import { ModelErrorCode } from './model-error-code';
import { abortedModelError } from './model-errors';
import type { JsonSchemaObject, ModelRequest, ModelToolSpec } from './model-request';
import type { ModelFinishReason, ModelUsage } from './model-response';
import { toolrailProviderOptionsKey } from '../model-settings';
import type { ScriptedResponse } from './scripted-response';

/** A step that computes its answer from the request, e.g. to react to a refused call. */
export type ScriptedResponder = (request: ModelRequest) => ScriptedResponse | Promise<ScriptedResponse>;

/** One entry of a script: a canned response or a step function. */
export type ScriptStep = ScriptedResponse | ScriptedResponder;

/** A language model (the AI SDK's `LanguageModelV4`) that answers from a script; it also records what it was asked. */
export interface ScriptedModel extends LanguageModelV4 {
  /**
   * Every request received by this instance, in arrival order (retries included), as the
   * conversation it carried. For assertions only; empty when `recordRequests` is `false`.
   */
  readonly requests: readonly ModelRequest[];
  /** Number of steps in the script. */
  readonly stepCount: number;
}

/** Options of {@link createScriptedModel}. */
export interface ScriptedModelOptions {
  /** The model's `provider`, reported in spans and error messages. Defaults to `scripted`. */
  provider?: string;
  /** The model's `modelId`. Defaults to `script`. */
  modelId?: string;
  /**
   * Keep a copy of every request in `requests`. Defaults to `true`; turn it off for long sessions,
   * where each request holds the conversation up to the context budget.
   */
  recordRequests?: boolean;
}

/**
 * A model that answers turn `n` of a session with step `n` of `script`, through the AI SDK's
 * provider interface (`doGenerate` and `doStream`), so a session runs the same path as with a real
 * provider. The turn is the one the session puts in `providerOptions.toolrail.turn` (outside a
 * session: the number of assistant messages in the prompt), never a cursor, so a retried activity
 * or a restarted worker gets the same answer. A turn past the end fails loudly with a
 * non-retryable `SCRIPT_EXHAUSTED`.
 */
export function createScriptedModel(script: readonly ScriptStep[], options: ScriptedModelOptions = {}): ScriptedModel {
  const provider = options.provider ?? 'scripted';
  const modelId = options.modelId ?? 'script';
  const recordRequests = options.recordRequests ?? true;
  const steps = [...script];
  const requests: ModelRequest[] = [];

  async function answer(
    callOptions: LanguageModelV4CallOptions,
  ): Promise<{ response: ScriptedResponse; turn: number }> {
    const signal = callOptions.abortSignal;
    // The conversation is read back only for a step function or the record: a long session's
    // canned answers cost no more than the turn number.
    let request: ModelRequest | undefined;
    const requestNow = (): ModelRequest => (request ??= toModelRequest(callOptions, modelId));
    if (recordRequests) requests.push(structuredClone(requestNow()));
    if (signal?.aborted) throw abortedModelError(provider, signal);
    const turn = turnOf(callOptions);
    if (!Number.isSafeInteger(turn) || turn < 0) {
      throw new ModelError({
        code: ModelErrorCode.BAD_REQUEST,
        message: `the turn must be a non-negative integer, got ${String(turn)}`,
        provider,
      });
    }
    const step = steps[turn];
    if (step === undefined) throw scriptExhausted(provider, turn, steps.length);
    const response = typeof step === 'function' ? await step(requestNow()) : step;
    return { response: structuredClone(response), turn };
  }

  return {
    specificationVersion: 'v4',
    provider,
    modelId,
    supportedUrls: {},
    requests,
    stepCount: steps.length,
    async doGenerate(callOptions) {
      const { response, turn } = await answer(callOptions);
      await wait(response.delayMs, callOptions.abortSignal, provider);
      return toGenerateResult(response, turn);
    },
    async doStream(callOptions) {
      const { response, turn } = await answer(callOptions);
      const parts = toStreamParts(response, turn);
      // The first text delta comes at once; the delay (if any) falls after it, mid-stream.
      const firstDelta = parts.findIndex((part) => part.type === 'text-delta');
      const pauseBefore = firstDelta + 1;
      let index = 0;
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        async pull(controller) {
          try {
            if (index === pauseBefore) await wait(response.delayMs, callOptions.abortSignal, provider);
            const part = parts[index];
            index += 1;
            if (part === undefined) controller.close();
            else controller.enqueue(part);
          } catch (error) {
            controller.error(error);
          }
        },
      });
      return { stream };
    },
  };
}

/**
 * The session's turn of a call (`providerOptions.toolrail.turn`), else the number of assistant
 * messages in its prompt.
 */
function turnOf(options: LanguageModelV4CallOptions): number {
  const own = options.providerOptions?.[toolrailProviderOptionsKey] as { turn?: unknown } | undefined;
  if (typeof own?.turn === 'number') return own.turn;
  return options.prompt.filter((message) => message.role === 'assistant').length;
}

/** The call as the scripted model's step functions see it: the conversation and the settings. */
function toModelRequest(options: LanguageModelV4CallOptions, modelId: string): ModelRequest {
  const { system, messages } = fromLanguageModelPrompt(options.prompt);
  const own = options.providerOptions?.[toolrailProviderOptionsKey] as { sessionId?: unknown } | undefined;
  const turn = turnOf(options);
  const tools: ModelToolSpec[] = (options.tools ?? []).flatMap((tool) =>
    tool.type === 'function'
      ? [{ name: tool.name, description: tool.description ?? '', inputSchema: tool.inputSchema as JsonSchemaObject }]
      : [],
  );
  const { [toolrailProviderOptionsKey]: _own, ...providerOptions } = options.providerOptions ?? {};
  return {
    model: modelId,
    ...(system !== undefined && { system }),
    messages,
    tools,
    turn,
    ...(typeof own?.sessionId === 'string' && { sessionId: own.sessionId }),
    ...(options.temperature !== undefined && { temperature: options.temperature }),
    ...(options.maxOutputTokens !== undefined && { maxOutputTokens: options.maxOutputTokens }),
    ...(options.topP !== undefined && { topP: options.topP }),
    ...(options.topK !== undefined && { topK: options.topK }),
    ...(options.stopSequences !== undefined && { stopSequences: options.stopSequences }),
    ...(options.seed !== undefined && { seed: options.seed }),
    ...(Object.keys(providerOptions).length > 0 && { providerOptions }),
  };
}

/** A call's id in the script: its own, else `call_<turn>_<index>`, so ids never repeat across turns. */
function toolCallsOf(response: ScriptedResponse, turn: number): { id: string; name: string; input: string }[] {
  return (response.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_${turn}_${index}`,
    name: call.name,
    input: typeof call.args === 'string' ? call.args : JSON.stringify(call.args ?? {}),
  }));
}

function toGenerateResult(response: ScriptedResponse, turn: number): LanguageModelV4GenerateResult {
  const content: LanguageModelV4Content[] = [];
  if (response.reasoning !== undefined) content.push({ type: 'reasoning', text: response.reasoning });
  if (response.text !== undefined) content.push({ type: 'text', text: response.text });
  for (const call of toolCallsOf(response, turn)) {
    content.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.input });
  }
  return {
    content,
    finishReason: toFinishReason(response),
    usage: toUsage(response.usage),
    warnings: [],
  };
}

function toStreamParts(response: ScriptedResponse, turn: number): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  if (response.reasoning !== undefined) {
    parts.push(
      { type: 'reasoning-start', id: 'r0' },
      { type: 'reasoning-delta', id: 'r0', delta: response.reasoning },
      { type: 'reasoning-end', id: 'r0' },
    );
  }
  if (response.text !== undefined) {
    parts.push({ type: 'text-start', id: 't0' });
    // Word by word, as a provider streams it.
    for (const delta of response.text.match(/\S+\s*|\s+/g) ?? []) parts.push({ type: 'text-delta', id: 't0', delta });
    parts.push({ type: 'text-end', id: 't0' });
  }
  for (const call of toolCallsOf(response, turn)) {
    parts.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.input });
  }
  parts.push({ type: 'finish', finishReason: toFinishReason(response), usage: toUsage(response.usage) });
  return parts;
}

/** A scripted finish reason as a provider would report it (unified and raw). */
function toFinishReason(response: ScriptedResponse): LanguageModelV4FinishReason {
  const reason: ModelFinishReason =
    response.finishReason ?? ((response.toolCalls ?? []).length > 0 ? 'tool-calls' : 'stop');
  switch (reason) {
    case 'refusal':
      return { unified: 'content-filter', raw: 'refusal' };
    case 'content-filter':
      return { unified: 'content-filter', raw: 'content_filter' };
    case 'pause':
      return { unified: 'stop', raw: 'pause_turn' };
    default:
      return { unified: reason, raw: undefined };
  }
}

function toUsage(usage: ModelUsage | undefined): LanguageModelV4Usage {
  return {
    inputTokens: {
      total: usage?.inputTokens,
      noCache:
        usage === undefined
          ? undefined
          : usage.inputTokens - (usage.cachedInputTokens ?? 0) - (usage.cacheWriteInputTokens ?? 0),
      cacheRead: usage?.cachedInputTokens,
      cacheWrite: usage?.cacheWriteInputTokens,
    },
    outputTokens: {
      total: usage?.outputTokens,
      text: usage === undefined ? undefined : usage.outputTokens - (usage.reasoningTokens ?? 0),
      reasoning: usage?.reasoningTokens,
    },
  };
}

/**
 * Resolves after `ms` milliseconds (global timers, so tests can fake them), or rejects with
 * `ABORTED` when `signal` aborts.
 */
function wait(ms: number | undefined, signal: AbortSignal | undefined, provider: string): Promise<void> {
  if (ms === undefined || ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortedModelError(provider, signal as AbortSignal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function scriptExhausted(provider: string, turn: number, stepCount: number): ModelError {
  const range =
    stepCount === 0
      ? 'it is empty'
      : stepCount === 1
        ? 'it has 1 response (turn 0)'
        : `it has ${stepCount} responses (turns 0 to ${stepCount - 1})`;
  return new ModelError({
    code: ModelErrorCode.SCRIPT_EXHAUSTED,
    message: `the script ran out: turn ${turn} asked for response ${turn + 1}, but ${range}`,
    provider,
  });
}
