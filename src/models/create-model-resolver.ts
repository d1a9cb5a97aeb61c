import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { ModelError } from './model-error';
import { ModelErrorCode } from './model-error-code';
import { parseModelSettings } from '../model-settings';
import type { BuiltInModelSettings, GenerationSettings, ModelSettings } from '../model-settings';
import { toolArgumentsAsTextFetch } from './tool-arguments-as-text-fetch';

/** A model given to a worker, with the defaults sessions get unless their settings say otherwise. */
export interface WorkerModel {
  model: LanguageModelV4;
  /** Stream its responses (`doStream`). Defaults to `false`. */
  stream?: boolean;
  /** Bytes of conversation it is shown (see `contextBudgetBytes` in the model settings). */
  contextBudgetBytes?: number;
}

/**
 * The models a worker serves, by the id sessions name (`{ id: 'fast' }`): a language model, or one
 * with its defaults.
 */
export type WorkerModels =
  Readonly<Record<string, LanguageModelV4 | WorkerModel>> | ReadonlyMap<string, LanguageModelV4 | WorkerModel>;

/**
 * Resolves model ids to language models: the AI SDK's `createProviderRegistry(...)` (ids such as
 * `openai:gpt-5.4-mini`), or a single provider (`createOpenAI()`, ids such as `gpt-5.4-mini`).
 */
export interface LanguageModelRegistry {
  languageModel(id: string): LanguageModelV4;
}

/** What the worker has that session settings cannot carry. */
export interface ModelResolverOptions {
  /** Models by id. */
  models?: WorkerModels;
  /** Ids not in `models` are looked up here. */
  modelRegistry?: LanguageModelRegistry;
  /** Scripted models by name, for `provider: 'scripted'`. */
  scriptedModels?: ReadonlyMap<string, LanguageModelV4>;
  /** Where the built-in providers read API keys. Defaults to `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The `fetch` the built-in providers use. Defaults to the global one. */
  fetch?: typeof fetch;
}

/** The model a session's settings name, and how to call it. */
export interface ResolvedModel {
  model: LanguageModelV4;
  /** The settings as validated. */
  settings: ModelSettings;
  /** The session's generation settings over the model's defaults. */
  generation: GenerationSettings;
  stream: boolean;
  /** The budget the settings or the worker's entry give; `undefined` leaves the provider's default. */
  contextBudgetBytes: number | undefined;
}

/** Sent as the key to a custom `baseUrl` when no key is set: local OpenAI-compatible servers need none. */
const placeholderApiKey = 'no-key';

const defaultApiKeyEnv = {
  openai: 'OPENAI_API_KEY',
  'openai-responses': 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
};

/**
 * Returns the function the model activity resolves a session's model settings with: a model the
 * worker was given (`{ id }`: `models`, then `modelRegistry`), or one it builds with an official
 * AI SDK provider (`{ provider, model }`: `@ai-sdk/openai`'s chat completions or Responses API,
 * `@ai-sdk/anthropic`, or a registered scripted model). Built models are kept, one per setting of
 * provider, model, base URL, key variable and timeout. Throws a non-retryable `ModelError`
 * `CONFIGURATION` when the settings are invalid, the model is unknown, or its key variable is unset
 * (and no `baseUrl` is given).
 */
export function createModelResolver(options: ModelResolverOptions = {}): (settings: unknown) => ResolvedModel {
  const models: ReadonlyMap<string, LanguageModelV4 | WorkerModel> =
    options.models instanceof Map ? options.models : new Map(Object.entries(options.models ?? {}));
  const built = new Map<string, LanguageModelV4>();
  return (input) => {
    const parsed = parseModelSettings(input);
    if (!parsed.ok) throw configurationError('model', parsed.message);
    const { settings } = parsed;
    const {
      id: _id,
      provider: _provider,
      model: _model,
      baseUrl: _baseUrl,
      apiKeyEnv: _apiKeyEnv,
      timeoutMs: _timeoutMs,
      ...generation
    } = settings as Partial<BuiltInModelSettings> & { id?: string } & GenerationSettings;
    if ('id' in settings) {
      const entry = models.get(settings.id) ?? fromRegistry(options, settings.id, models);
      const own = isWorkerModel(entry) ? entry : { model: entry };
      return {
        model: own.model,
        settings,
        generation,
        stream: generation.stream ?? own.stream ?? false,
        contextBudgetBytes: generation.contextBudgetBytes ?? own.contextBudgetBytes,
      };
    }
    const key = JSON.stringify([
      settings.provider,
      settings.model,
      settings.baseUrl,
      settings.apiKeyEnv,
      settings.timeoutMs,
    ]);
    let model = built.get(key);
    if (model === undefined) {
      model = buildModel(settings, options);
      built.set(key, model);
    }
    const defaults: GenerationSettings = settings.provider.startsWith('openai') ? { strictTools: 'auto' } : {};
    return {
      model,
      settings,
      generation: { ...defaults, ...generation },
      stream: generation.stream ?? false,
      contextBudgetBytes: generation.contextBudgetBytes,
    };
  };
}

function isWorkerModel(value: LanguageModelV4 | WorkerModel): value is WorkerModel {
  return !('specificationVersion' in value) && 'model' in value;
}

function fromRegistry(
  options: ModelResolverOptions,
  id: string,
  models: ReadonlyMap<string, unknown>,
): LanguageModelV4 {
  const known = [...models.keys()];
  const listed = known.length > 0 ? known.join(', ') : 'none';
  if (options.modelRegistry === undefined) {
    throw configurationError(
      'model',
      `no model "${id}" on this worker (its models: ${listed}); give it in createWorker({ models }) or a modelRegistry, or name a built-in one with { provider, model }`,
    );
  }
  try {
    return options.modelRegistry.languageModel(id);
  } catch (error) {
    throw new ModelError({
      code: ModelErrorCode.CONFIGURATION,
      message: `no model "${id}" on this worker (its models: ${listed}; the model registry says: ${error instanceof Error ? error.message : String(error)})`,
      provider: 'model',
      cause: error,
    });
  }
}

/** A model built with an official provider, its key from the worker's environment. */
function buildModel(settings: BuiltInModelSettings, options: ModelResolverOptions): LanguageModelV4 {
  const { provider, model, baseUrl, apiKeyEnv, timeoutMs } = settings;
  if (provider === 'scripted') {
    const scripted = options.scriptedModels?.get(model);
    if (scripted === undefined) {
      const known = [...(options.scriptedModels?.keys() ?? [])];
      throw configurationError(
        provider,
        `no scripted model named "${model}" is registered (known: ${known.length > 0 ? known.join(', ') : 'none'})`,
      );
    }
    return scripted;
  }
  const keyVariable = apiKeyEnv ?? defaultApiKeyEnv[provider];
  const env = options.env ?? process.env;
  const apiKey = env[keyVariable] || (baseUrl !== undefined ? placeholderApiKey : undefined);
  if (apiKey === undefined) {
    throw configurationError(provider, `set ${keyVariable} to an API key (or give a baseUrl for a local server)`);
  }
  const fetchWithTimeout = withTimeout(options.fetch ?? globalThis.fetch, timeoutMs);
  if (provider === 'anthropic') {
    // toolrail's baseUrl for Anthropic is the API root (as before); the provider's includes /v1.
    const baseURL = baseUrl === undefined ? undefined : `${baseUrl.replace(/\/+$/, '')}/v1`;
    return createAnthropic({
      apiKey,
      fetch: fetchWithTimeout,
      ...(baseURL !== undefined && { baseURL }),
    }).languageModel(model);
  }
  const openai = createOpenAI({
    apiKey,
    ...(baseUrl !== undefined && { baseURL: baseUrl.replace(/\/+$/, '') }),
    fetch: provider === 'openai' ? toolArgumentsAsTextFetch(fetchWithTimeout) : fetchWithTimeout,
  });
  return provider === 'openai' ? openai.chat(model) : openai.responses(model);
}

/** `fetch` with a per-request time limit, in milliseconds (it aborts with a `TimeoutError`). */
function withTimeout(fetchImplementation: typeof fetch, timeoutMs: number | undefined): typeof fetch {
  if (timeoutMs === undefined) return fetchImplementation;
  return (input, init) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    return fetchImplementation(input, { ...init, signal });
  };
}

function configurationError(provider: string, message: string): ModelError {
  return new ModelError({ code: ModelErrorCode.CONFIGURATION, message, provider });
}
