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

/** Budget of a provider not listed above, in bytes. */
export const fallbackContextBudgetBytes = 384_000;

/**
 * The context budget of a model call: the one given (the session's `contextBudgetBytes`, else the
 * worker's entry for the model), else the default of the model's provider family.
 */
export function resolveContextBudget({
  provider,
  contextBudgetBytes,
}: {
  provider: string;
  contextBudgetBytes?: number | undefined;
}): number {
  const family = provider.split('.')[0] ?? provider;
  return contextBudgetBytes ?? defaultContextBudgets[family] ?? fallbackContextBudgetBytes;
}
