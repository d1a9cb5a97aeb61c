import type { WorkflowClient } from '@temporalio/client';

/**
 * The run that continued as new into run `runId` of the session's workflow (read from that run's
 * start event), or `undefined` for the session's first run.
 */
export async function previousRunOf(
  client: WorkflowClient,
  sessionId: string,
  runId: string,
): Promise<string | undefined> {
  const response = await client.workflowService.getWorkflowExecutionHistory({
    namespace: client.options.namespace,
    execution: { workflowId: sessionId, runId },
    maximumPageSize: 1,
    skipArchival: true,
  });
  const started = response.history?.events?.[0]?.workflowExecutionStartedEventAttributes;
  return started?.continuedExecutionRunId || undefined;
}
