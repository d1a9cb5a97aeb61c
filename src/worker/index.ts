/**
 * Workers: bundling the session workflows (with or without tracing) and running them with the
 * session's activities (Node side).
 * @module
 */
export { bundleSessionWorkflows } from './bundle-session-workflows';
export type { SessionBundleOptions } from './session-bundle-options';
export { bundleTracedSessionWorkflows } from './bundle-traced-session-workflows';
export { createWorker } from './create-worker';
export { toolrailPlugin, ToolrailPlugin } from './toolrail-plugin';
export type { ToolrailPluginOptions } from './toolrail-plugin-options';
export { ToolrailPluginError, ToolrailPluginErrorCode } from './toolrail-plugin-error';
export type { CreateWorkerOptions } from './create-worker';
export { readWorkerModule } from './worker-module';
export type { ToolrailWorkerModule } from './worker-module';
export { workflowsPath } from './workflows-path';
