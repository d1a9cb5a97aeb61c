import { ApplicationFailure } from '@temporalio/workflow';
import type { WorkflowInterceptorsFactory } from '@temporalio/workflow';
import { unreadableResultFailureType } from '../src/errors';
import { undecodableProblem } from '../src/session';

/**
 * Workflow interceptors (in every bundle toolrail makes) that turn an activity result the session
 * can never read (its External Storage claim's content is gone or corrupt, or no converter decodes
 * it) into a non-retryable `UNREADABLE_RESULT` failure of that activity, naming why: the call
 * fails like any failed activity (a model call fails the run, a tool call is settled from its
 * record or reported as failed, a store write fails the session), never the workflow task. One
 * `then` each, not `async` functions: the SDK records a stack trace for each promise a workflow makes.
 */
export const interceptors: WorkflowInterceptorsFactory = () => ({
  outbound: [
    {
      scheduleActivity: (input, next) => next(input).then((result) => readable(input.activityType, result)),
      scheduleLocalActivity: (input, next) => next(input).then((result) => readable(input.activityType, result)),
    },
  ],
});

/** `result`, or the failure that says why the result of `activityType` cannot be read. */
function readable(activityType: string, result: unknown): unknown {
  const problem = undecodableProblem(result, `the result of activity ${activityType}`);
  if (problem === undefined) return result;
  throw ApplicationFailure.create({ type: unreadableResultFailureType, nonRetryable: true, message: problem });
}
