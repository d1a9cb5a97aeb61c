import type { WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { bundleWorkflowsOnce } from './bundle-session-workflows';
import type { SessionBundleOptions } from './session-bundle-options';

/** Temporal's OpenTelemetry workflow interceptors (span per workflow run and per scheduled activity). */
export const tracingWorkflowInterceptorsModule =
  require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors');

/**
 * Bundles toolrail's workflows with Temporal's OpenTelemetry workflow interceptors, once per
 * process: what `createWorker` runs when tracing is on.
 */
export function bundleTracedSessionWorkflows(options: SessionBundleOptions = {}): Promise<WorkflowBundleWithSourceMap> {
  return bundleWorkflowsOnce([tracingWorkflowInterceptorsModule], options);
}
