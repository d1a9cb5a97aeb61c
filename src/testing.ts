/**
 * `toolrail/testing`: what tests and local runs need: a Temporal dev server (the CLI is found, or
 * built once into the per-user cache) and a scripted model that plays back fixed responses.
 * @module
 */
export { startDevServer } from './devserver/start-dev-server';
export type { DevServer, StartDevServerOptions } from './devserver/start-dev-server';
export { TemporalCliNotFoundError } from './devserver/temporal-cli-not-found-error';
export { freePort, isPortFree } from './devserver/free-port';
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
