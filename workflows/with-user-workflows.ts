// The workflow bundle's entry point when toolrail joins a worker's own workflows (`toolrailPlugin`):
// the worker's workflows, and toolrail's. The bundler resolves the module below to the worker's
// `workflowsPath` (an alias toolrail's plugin adds to the bundler's configuration).
// @ts-expect-error -- resolved by the bundler's alias; there is no such module outside a bundle
export * from '__toolrail_user_workflows__';
export { agentSession } from './agent-session';
