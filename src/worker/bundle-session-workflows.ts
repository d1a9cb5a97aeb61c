import { bundleWorkflowCode } from '@temporalio/worker';
import type { WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { payloadConverterPath } from './payload-converter-path';
import { workflowsPath } from './workflows-path';

/** A logger for `bundleWorkflowCode` that shows only the bundler's warnings and errors. */
export const bundlerLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string) => process.stderr.write(`[bundler] ${message}\n`),
  error: (message: string) => process.stderr.write(`[bundler] ${message}\n`),
};

let cached: Promise<WorkflowBundleWithSourceMap> | undefined;

/**
 * Bundles toolrail's workflows once per process (webpack takes seconds), for workers and replay.
 * Pass the result as `workflowBundle` to start many workers quickly.
 */
export function bundleSessionWorkflows(): Promise<WorkflowBundleWithSourceMap> {
  cached ??= bundleWorkflowCode({ workflowsPath, payloadConverterPath, logger: bundlerLogger });
  return cached;
}
