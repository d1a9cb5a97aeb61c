import { workflowInfo } from '@temporalio/workflow';
import type { WorkflowInterceptorsFactory } from '@temporalio/workflow';
import { activityPayloadCompaction } from './activity-payloads';

/**
 * Workflow interceptors (in every bundle toolrail makes, innermost) that send a session's model and
 * tool activities their input compact and read their result whole again (`activityPayloadCompaction`):
 * the session's code, and every other interceptor, see plain inputs and results.
 */
export const interceptors: WorkflowInterceptorsFactory = () => {
  const { workflowType } = workflowInfo();
  return {
    outbound: [
      {
        scheduleActivity: (input, next) => scheduleCompacted(workflowType, input, next),
        scheduleLocalActivity: (input, next) => scheduleCompacted(workflowType, input, next),
      },
    ],
  };
};

/**
 * Schedules the activity `input` names, its input compact when it is a session's, and returns its
 * result whole. One `then`, not an `async` function: the SDK records a stack trace for each promise
 * a workflow makes.
 */
function scheduleCompacted<Input extends { readonly activityType: string; readonly args: unknown[] }>(
  workflowType: string,
  input: Input,
  next: (input: Input) => Promise<unknown>,
): Promise<unknown> {
  const compaction = activityPayloadCompaction(workflowType, input.activityType);
  if (compaction === undefined) return next(input);
  const [whole] = input.args;
  return next({ ...input, args: [compaction.compactInput(whole)] }).then((result) =>
    compaction.expandResult(result, whole),
  );
}
