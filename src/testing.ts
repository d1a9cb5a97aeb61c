/**
 * `toolrail/testing`: what tests and local runs need: a Temporal dev server (the CLI is found, or
 * built once into the per-user cache) and a scripted model that plays back fixed responses.
 * @module
 */
export { startDevServer, TemporalCliNotFoundError, freePort, isPortFree } from './devserver';
export type { DevServer, StartDevServerOptions } from './devserver';
export {
  createScriptedModel,
  latestToolResults,
  textResponse,
  toolCallResponse,
  parallelToolCallsResponse,
} from './models';
export type {
  ScriptStep,
  ScriptedModel,
  ScriptedModelOptions,
  ScriptedResponse,
  ScriptedResponseOptions,
  ScriptedToolCall,
} from './models';
