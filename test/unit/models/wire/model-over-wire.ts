import {
  callLanguageModel,
  createModelResolver,
  ModelError,
  toModelError,
  type LanguageModelCallResult,
  type ModelRequest,
} from '../../../../src/models';
import type { BuiltInModelSettings, GenerationSettings } from '../../../../src/model-settings';
import {
  startWireServer,
  type HOLD,
  type WireApi,
  type WireFixture,
  type WireServer,
} from '../../../helpers/wire-server';

/** A model built as a worker builds it from settings, talking to a local server that replays recorded responses. */
export interface ModelOverWire {
  server: WireServer;
  /** One call through the production path (`callLanguageModel`), with the settings' generation fields. */
  call(
    request: ModelRequest,
    options?: { stream?: boolean; signal?: AbortSignal; onTextDelta?: (delta: string) => void },
  ): Promise<LanguageModelCallResult>;
  /** The `ModelError` a call fails with (the activity's mapping of what the provider threw). */
  failure(request: ModelRequest, options?: { stream?: boolean; signal?: AbortSignal }): Promise<ModelError>;
}

const providerOf: Record<WireApi, BuiltInModelSettings['provider']> = {
  openai: 'openai',
  'openai-compatible': 'openai',
  'openai-responses': 'openai-responses',
  anthropic: 'anthropic',
};

/**
 * Starts a wire server replaying `replies` and builds the model `{ provider, model, baseUrl }` names
 * for `api` (the official provider, no key in the environment; `model` defaults to `test-model`),
 * with `settings`.
 */
export async function modelOverWire(
  api: WireApi,
  replies: (WireFixture | typeof HOLD)[],
  { model = 'test-model', ...settings }: GenerationSettings & { timeoutMs?: number; model?: string } = {},
): Promise<ModelOverWire> {
  const server = await startWireServer(replies);
  const provider = providerOf[api];
  const baseUrl = provider === 'anthropic' ? server.url : `${server.url}/v1`;
  const resolved = createModelResolver({ env: {} })({ provider, model, baseUrl, ...settings });
  const { contextBudgetBytes: _budget, stream: _stream, ...generation } = resolved.generation;
  const call: ModelOverWire['call'] = (request, options = {}) =>
    callLanguageModel({
      model: resolved.model,
      request: { ...generation, ...request },
      abortSignal: options.signal ?? new AbortController().signal,
      ...(options.stream === undefined ? {} : { stream: options.stream }),
      ...(options.onTextDelta ? { onTextDelta: options.onTextDelta } : {}),
    });
  return {
    server,
    call,
    async failure(request, options = {}) {
      const signal = options.signal ?? new AbortController().signal;
      const error = await call(request, { ...options, signal }).then(
        () => undefined,
        (caught: unknown) => toModelError(caught, { provider: resolved.model.provider, signal }),
      );
      if (!ModelError.isInstance(error)) throw new Error(`expected a ModelError, got ${String(error)}`);
      return error;
    },
  };
}
