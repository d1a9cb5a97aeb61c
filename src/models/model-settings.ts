// The settings and their schema live in the kernel: the session input carries model settings, and
// the workflow checks that input with the same schema the client uses.
export { builtInProviders, modelSettingsSchema, parseModelSettings, toolrailProviderOptionsKey } from '../kernel';
export type {
  BuiltInModelSettings,
  GenerationSettings,
  ModelProvider,
  ModelSettings,
  RegisteredModelSettings,
} from '../kernel';
