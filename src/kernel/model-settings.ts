import { z } from 'zod';

/**
 * Which model a session uses, as plain JSON (it travels in the workflow input). API keys are never
 * part of it: `apiKeyEnv` names the environment variable the worker reads the key from.
 */
export const modelSettingsSchema = z.strictObject({
  /** `openai` (any OpenAI-compatible chat completions server), `anthropic`, or `scripted`. */
  provider: z.enum(['openai', 'anthropic', 'scripted']),
  /** The provider's model name; for `scripted`, the name of a script registered with the worker. */
  model: z.string().min(1),
  /** Base URL of the API; for OpenAI-compatible servers it ends in `/v1`. Defaults to the provider's. */
  baseUrl: z.url().optional(),
  /** Environment variable holding the API key. Defaults to `OPENAI_API_KEY` / `ANTHROPIC_API_KEY`. */
  apiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')
    .optional(),
  /** Per-request timeout, in milliseconds. Defaults to 600_000. */
  timeoutMs: z.number().int().positive().optional(),
  /** `false` asks the model for at most one tool call per turn. Unset leaves the provider's default (parallel allowed). */
  parallelToolCalls: z.boolean().optional(),
  /** Strict tool schemas: see each adapter. Defaults to `'auto'` for OpenAI and `false` for Anthropic. */
  strictTools: z.union([z.boolean(), z.literal('auto')]).optional(),
});

/** Model settings as written (see {@link modelSettingsSchema}). */
export type ModelSettings = z.input<typeof modelSettingsSchema>;

/** The provider names {@link ModelSettings} accepts. */
export type ModelProvider = ModelSettings['provider'];
