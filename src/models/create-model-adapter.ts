import { createAnthropicMessagesModel } from './anthropic-messages-model';
import type { ModelAdapter } from './model-adapter';
import { ModelError } from './model-error';
import { ModelErrorCode } from './model-error-code';
import { modelSettingsSchema, type ModelSettings } from './model-settings';
import { createOpenAIChatModel } from './openai-chat-model';

/** Options of {@link createModelAdapter}: what the worker has that settings cannot carry. */
export interface CreateModelAdapterOptions {
  /** Where API keys are read from. Defaults to `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Scripted models by name, for `provider: 'scripted'` (the settings' `model` picks one). */
  scriptedModels?: ReadonlyMap<string, ModelAdapter>;
  /** Retries inside the SDK client. Defaults to 0: Temporal retries the activity. */
  maxRetries?: number;
}

/** Sent as the key to a custom `baseUrl` when no key is set: local OpenAI-compatible servers need none. */
const placeholderApiKey = 'no-key';

const defaultApiKeyEnv = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' } as const;

/**
 * Builds the adapter that `settings` describe. Throws a non-retryable `ModelError` `CONFIGURATION`
 * when the settings are invalid, the API key variable is unset (and no `baseUrl` is given), or no
 * scripted model has the requested name.
 */
export function createModelAdapter(settings: ModelSettings, options: CreateModelAdapterOptions = {}): ModelAdapter {
  const parsed = modelSettingsSchema.safeParse(settings);
  if (!parsed.success) {
    throw configurationError('model', `invalid model settings: ${parsed.error.issues.map(formatIssue).join('; ')}`);
  }
  const { provider, model, baseUrl, apiKeyEnv, timeoutMs, parallelToolCalls, strictTools } = parsed.data;
  if (provider === 'scripted') {
    const scripted = options.scriptedModels?.get(model);
    if (!scripted) {
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
  const common = {
    apiKey,
    ...(baseUrl !== undefined && { baseUrl }),
    ...(timeoutMs !== undefined && { timeoutMs }),
    ...(parallelToolCalls !== undefined && { parallelToolCalls }),
    ...(strictTools !== undefined && { strictTools }),
    ...(options.maxRetries !== undefined && { maxRetries: options.maxRetries }),
  };
  return provider === 'openai' ? createOpenAIChatModel(common) : createAnthropicMessagesModel(common);
}

function configurationError(provider: string, message: string): ModelError {
  return new ModelError({ code: ModelErrorCode.CONFIGURATION, message, provider });
}

function formatIssue(issue: { path: PropertyKey[]; message: string }): string {
  return issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message;
}
