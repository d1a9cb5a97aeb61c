import type { WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type { SessionBundleOptions } from './session-bundle-options';
import { bundleInChildProcess } from './workflow-bundler-process';

const bundles = new Map<string, Promise<WorkflowBundleWithSourceMap>>();

/**
 * Bundles toolrail's workflows with the workflow interceptor modules `interceptorModules` between
 * toolrail's own (see `sessionBundleOptions`), once per process for each choice of them and the
 * options, in a short-lived child process (see `bundleInChildProcess`).
 */
export function bundleWorkflowsOnce(
  interceptorModules: readonly string[],
  { stackTraces = false, live = true }: SessionBundleOptions,
): Promise<WorkflowBundleWithSourceMap> {
  const key = JSON.stringify([interceptorModules, stackTraces, live]);
  let bundle = bundles.get(key);
  if (bundle === undefined) {
    bundle = bundleInChildProcess({ interceptorModules, stackTraces, live });
    // A failed bundle is not kept: the next worker tries again.
    bundle.catch(() => bundles.delete(key));
    bundles.set(key, bundle);
  }
  return bundle;
}

/**
 * Bundles toolrail's workflows once per process (webpack takes seconds; it runs in a child process
 * whose memory goes back to the system when it ends), for workers and replay. Pass the result as
 * `workflowBundle` to start many workers quickly. Without `stackTraces: true`, errors in workflow
 * code capture no frames (see {@link SessionBundleOptions}).
 */
export function bundleSessionWorkflows(options: SessionBundleOptions = {}): Promise<WorkflowBundleWithSourceMap> {
  return bundleWorkflowsOnce([], options);
}
