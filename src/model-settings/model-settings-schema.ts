import { buildModelSettingsSchema } from './model-settings';
import type { ModelSettings } from './model-settings';

type ModelSettingsSchema = ReturnType<typeof buildModelSettingsSchema>;
let built: ModelSettingsSchema | undefined;

/**
 * The schema of which model a session uses and how it generates, as plain JSON (it travels in the
 * workflow input), built on first use: the workflow bundle holds this module, and loads no zod until
 * a schema is needed. API keys are never part of it: the worker reads them from its environment.
 */
export function modelSettingsSchema(): ModelSettingsSchema {
  return (built ??= buildModelSettingsSchema());
}

/**
 * Checks model settings: the parsed settings, or one line naming each problem
 * (`temperature: Too big: expected number to be <=2`).
 */
export function parseModelSettings(
  settings: unknown,
): { ok: true; settings: ModelSettings } | { ok: false; message: string } {
  const parsed = modelSettingsSchema().safeParse(settings);
  if (parsed.success) return { ok: true, settings: parsed.data as ModelSettings };
  return { ok: false, message: `invalid model settings: ${parsed.error.issues.map(formatIssue).join('; ')}` };
}

function formatIssue(issue: { path: PropertyKey[]; message: string }): string {
  return issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message;
}
