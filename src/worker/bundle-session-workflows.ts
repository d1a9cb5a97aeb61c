import { bundleWorkflowCode } from '@temporalio/worker';
import type { WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { workflowsPath } from './workflows-path';

let cached: Promise<WorkflowBundleWithSourceMap> | undefined;

/**
 * Bundles toolrail's workflows once per process (webpack takes seconds), for workers and replay.
 * Pass the result as `workflowBundle` to start many workers quickly.
 */
export function bundleSessionWorkflows(): Promise<WorkflowBundleWithSourceMap> {
  cached ??= bundleWorkflowCode({ workflowsPath, logger: silentLogger });
  return cached;
}

const silentLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string) => process.stderr.write(`[bundler] ${message}\n`),
  error: (message: string) => process.stderr.write(`[bundler] ${message}\n`),
};
