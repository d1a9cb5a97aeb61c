/**
 * Model settings: which model a session uses and how it generates, as plain JSON in the session's
 * input, with their schema and the default context budgets. Pure and deterministic: the workflow
 * checks a start input with the same schema the client uses.
 * @module
 */
export {
  buildModelSettingsSchema,
  builtInProviders,
  defaultContextBudgets,
  fallbackContextBudgetBytes,
  toolrailProviderOptionsKey,
} from './model-settings';
export type {
  BuiltInModelSettings,
  GenerationSettings,
  ModelProvider,
  ModelSettings,
  RegisteredModelSettings,
} from './model-settings';
export { modelSettingsSchema, parseModelSettings } from './model-settings-schema';
export { resolveContextBudget } from './context-budget';
