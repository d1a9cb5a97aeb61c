import type { z } from 'zod';
import { zod } from '../rules';

// A deterministic part: the session input carries model settings, and the workflow checks that input
// with the same schema the client uses (the models part re-exports all of it). Built by a function,
// not at module evaluation: a worker whose sessions' start inputs the client checked never builds it.

/** The models a worker builds itself from settings, with the official AI SDK providers (keys from its environment). */
export const builtInProviders = ['openai', 'openai-responses', 'anthropic', 'scripted'] as const;

/** One of {@link builtInProviders}. */
export type ModelProvider = (typeof builtInProviders)[number];

function jsonValueSchema(): z.ZodType<unknown> {
  const z = zod();
  const jsonValue: z.ZodType<unknown> = z.lazy(() =>
    z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(jsonValue), z.record(z.string(), jsonValue)]),
  );
  return jsonValue;
}

/** The `providerOptions` key toolrail sets itself on every call (`{ sessionId, turn }`). */
export const toolrailProviderOptionsKey = 'toolrail';

/**
 * How the model generates: sent with every call of the session. Each field is optional and
 * validated; what a provider does not support it ignores with a warning (see the AI SDK provider's
 * documentation).
 */
function generationShape() {
  const z = zod();
  return {
    /** Sampling temperature, 0 to 2 (Anthropic: 0 to 1). */
    temperature: z.number().min(0).max(2).optional(),
    /**
     * Most tokens one response may generate. Defaults to the provider's (Anthropic's provider: the
     * model's maximum).
     */
    maxOutputTokens: z.number().int().positive().optional(),
    /** Nucleus sampling, above 0 up to 1. */
    topP: z.number().gt(0).max(1).optional(),
    /** Sample only from the K likeliest tokens. */
    topK: z.number().int().positive().optional(),
    /** Sequences that stop generation (at most 16, none empty). */
    stopSequences: z.array(z.string().min(1)).max(16).optional(),
    /** Seed for sampling, where the provider supports it. */
    seed: z.number().int().optional(),
    /** -2 to 2. */
    presencePenalty: z.number().min(-2).max(2).optional(),
    /** -2 to 2. */
    frequencyPenalty: z.number().min(-2).max(2).optional(),
    /** How much the model reasons, where it can. */
    reasoning: z.enum(['provider-default', 'none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']).optional(),
    /**
     * Options of one provider, keyed by its name (`{ anthropic: { thinking: { type: 'adaptive' } } }`),
     * passed through as the AI SDK's `providerOptions`. Plain JSON; the key `toolrail` is reserved.
     */
    providerOptions: z
      .record(z.string().min(1), z.record(z.string(), jsonValueSchema()))
      .refine((options) => !Object.hasOwn(options, toolrailProviderOptionsKey), {
        message: `the key "${toolrailProviderOptionsKey}" is reserved (toolrail sets it to { sessionId, turn })`,
      })
      .optional(),
    /** `false` asks for at most one tool call per response. Unset leaves the provider's default (parallel allowed). */
    parallelToolCalls: z.boolean().optional(),
    /**
     * `strict` on the tools: `'auto'` where the schema allows it, `true` on all, `false` on none.
     * Defaults: `'auto'` for `openai` and `openai-responses`, unset (the provider's default) otherwise.
     */
    strictTools: z.union([z.boolean(), z.literal('auto')]).optional(),
    /**
     * Bytes of conversation the model is shown (newest first; older results shortened, oldest turns
     * left out). Defaults to the model's entry on the worker, else 384 000 (OpenAI and others),
     * 576 000 (Anthropic), 1 048 576 (scripted). At least 1 024.
     */
    contextBudgetBytes: z.number().int().min(1_024).optional(),
    /**
     * Stream the response (`doStream`): text deltas reach `onModelTextDelta` as they arrive.
     * Defaults to the model's entry on the worker, else `false`.
     */
    stream: z.boolean().optional(),
  };
}

/** Where the model comes from: exactly one of `id`, or `provider` with `model`. */
function sourceShape() {
  const z = zod();
  return {
    /**
     * A model the worker was given: a key of `createWorker({ models })`, or an id its
     * `modelRegistry` resolves (e.g. `openai:gpt-5.4-mini` with the AI SDK's `createProviderRegistry`).
     */
    id: z.string().min(1).optional(),
    /**
     * A model the worker builds with an official provider: `openai` (chat completions, any
     * compatible server), `openai-responses`, `anthropic`, or `scripted`.
     */
    provider: z.enum(builtInProviders).optional(),
    /** With `provider`: the provider's model name; for `scripted`, the name of a script registered with the worker. */
    model: z.string().min(1).optional(),
    /**
     * With `provider`: the API's base URL (OpenAI and compatible servers: up to and including
     * `/v1`; Anthropic: the root, without `/v1`).
     */
    baseUrl: z.url().optional(),
    /**
     * With `provider`: the environment variable holding the key. Defaults to `OPENAI_API_KEY` /
     * `ANTHROPIC_API_KEY`.
     */
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')
      .optional(),
    /** With `provider`: per-request timeout, in milliseconds. Unset: none (the activity's own time limit applies). */
    timeoutMs: z.number().int().positive().optional(),
  };
}

const connectionFields = ['baseUrl', 'apiKeyEnv', 'timeoutMs'] as const;

/**
 * Builds the schema of which model a session uses and how it generates, as plain JSON (it travels in
 * the workflow input); `modelSettingsSchema()` is one built once. API keys are never part of it: the
 * worker reads them from its environment.
 */
export function buildModelSettingsSchema() {
  const z = zod();
  return z.strictObject({ ...sourceShape(), ...generationShape() }).superRefine((settings, context) => {
    if (settings.id !== undefined) {
      for (const field of ['provider', 'model', ...connectionFields] as const) {
        if (settings[field] !== undefined) {
          context.addIssue({
            code: 'custom',
            path: [field],
            message: `give either id (a model the worker was given) or provider and model, not both; ${field} belongs to provider`,
          });
        }
      }
      return;
    }
    if (settings.provider === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['id'],
        message:
          'give id (a model the worker was given), or provider (openai, openai-responses, anthropic, scripted) and model',
      });
    } else if (settings.model === undefined) {
      context.addIssue({ code: 'custom', path: ['model'], message: `give the ${settings.provider} model name` });
    }
  });
}

/** The generation fields of {@link ModelSettings}. */
export type GenerationSettings = z.input<z.ZodObject<ReturnType<typeof generationShape>>>;

/** A model the worker was given, by id. */
export interface RegisteredModelSettings extends GenerationSettings {
  id: string;
}

/** A model the worker builds itself with an official provider. */
export interface BuiltInModelSettings extends GenerationSettings {
  provider: ModelProvider;
  model: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  timeoutMs?: number;
}

/** Model settings as written in a session's input (see {@link buildModelSettingsSchema}). */
export type ModelSettings = RegisteredModelSettings | BuiltInModelSettings;

/**
 * Default context budgets, in UTF-8 bytes of the request's messages (about 3 bytes a token, with
 * room left for the system prompt, the tool schemas and the response), by provider family (the
 * part of the model's `provider` before the first dot: `anthropic.messages` → `anthropic`): OpenAI
 * 384 000 (~128k tokens), Anthropic 576 000 (~200k tokens), the scripted model 1 048 576.
 */
export const defaultContextBudgets: Readonly<Record<string, number>> = {
  openai: 384_000,
  anthropic: 576_000,
  scripted: 1_048_576,
};

/** Budget of a provider not listed in {@link defaultContextBudgets}, in bytes. */
export const fallbackContextBudgetBytes = 384_000;
