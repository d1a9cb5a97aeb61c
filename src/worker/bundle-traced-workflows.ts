import { bundleWorkflowCode } from '@temporalio/worker';
import type { WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { bundleTypeScriptAsPublished, bundlerLogger } from './bundle-session-workflows';
import { workflowsPath } from './workflows-path';
import { payloadConverterPath } from './payload-converter-path';

/** Temporal's OpenTelemetry workflow interceptors (span per workflow run and per scheduled activity). */
export const tracingWorkflowInterceptorsModule =
  require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors');

let cached: Promise<WorkflowBundleWithSourceMap> | undefined;

/**
 * Bundles toolrail's workflows with Temporal's OpenTelemetry workflow interceptors, once per
 * process: what `createWorker` runs when tracing is on.
 */
export function bundleTracedSessionWorkflows(): Promise<WorkflowBundleWithSourceMap> {
  cached ??= bundleWorkflowCode({
    workflowsPath,
    payloadConverterPath,
    workflowInterceptorModules: [tracingWorkflowInterceptorsModule],
    logger: bundlerLogger,
    webpackConfigHook: bundleTypeScriptAsPublished,
  });
  return cached;
}
