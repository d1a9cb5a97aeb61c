import { defaultContextBudgets, fallbackContextBudgetBytes } from './model-settings';

/**
 * The context budget of a model call: the one given (the session's `contextBudgetBytes`, else the
 * worker's entry for the model), else the default of the model's provider family (`defaultContextBudgets`).
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
