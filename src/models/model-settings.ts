// The schema lives in the kernel: the session input carries model settings, and the workflow checks
// that input with the same schema the client uses.
export { modelSettingsSchema } from '../kernel';
export type { ModelProvider, ModelSettings } from '../kernel';
