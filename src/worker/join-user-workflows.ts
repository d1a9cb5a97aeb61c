import type { BundleOptions } from '@temporalio/worker';
import { userWorkflowsAlias, withUserWorkflowsPath, workflowsPath } from './workflows-path';

type WebpackConfiguration = Parameters<NonNullable<BundleOptions['webpackConfigHook']>>[0];

/**
 * Bundle options whose bundle holds the worker's own workflows and toolrail's: the entry point
 * becomes `withUserWorkflowsPath`, which re-exports the worker's `workflowsPath` (through a webpack
 * alias added after the worker's own `webpackConfigHook` ran) and toolrail's workflows. A bundle of
 * toolrail's workflows alone, or one already joined, stays as it is.
 */
export function joinUserWorkflows(options: BundleOptions): BundleOptions {
  const own = options.workflowsPath;
  if (own === workflowsPath || own === withUserWorkflowsPath) return options;
  const hook = options.webpackConfigHook;
  return {
    ...options,
    workflowsPath: withUserWorkflowsPath,
    webpackConfigHook: (config) => withUserWorkflowsAlias(hook ? hook(config) : config, own),
  };
}

/** `config` with the alias that names the worker's own workflows module. */
function withUserWorkflowsAlias(config: WebpackConfiguration, userWorkflowsPath: string): WebpackConfiguration {
  const resolve = config.resolve ?? {};
  const alias = resolve.alias ?? {};
  const joined = Array.isArray(alias)
    ? [...alias, { name: userWorkflowsAlias, alias: userWorkflowsPath, onlyModule: true }]
    : { ...alias, [`${userWorkflowsAlias}$`]: userWorkflowsPath };
  return { ...config, resolve: { ...resolve, alias: joined } };
}
