import { ActivityFailure, ApplicationFailure, TimeoutFailure, TimeoutType } from '@temporalio/common';
import { ActivityCancellationType, proxyActivities, sleep, workflowInfo } from '@temporalio/workflow';
import type { ActivityOptions } from '@temporalio/workflow';
import type { ActivityToolTarget, JsonValue, PreparedCall } from '../src/dispatch';
import type { DispatchedCall } from '../src/session';
import type { Session } from './session';
import { workflowNow } from './workflow-now';

/** How long one scheduling waits for a worker to take the activity, in milliseconds, unless the tool says. */
const defaultWaitForWorkerMs = 60_000;
/** The pause before the call is scheduled again after a worker said it lacks the activity, in milliseconds. */
const notRegisteredPauseMs = 5_000;
/** The failure types SDK workers answer an activity they do not have with (TypeScript, Python: `NotFoundError`; Go). */
const notRegisteredTypes = new Set(['NotFoundError', 'ActivityNotRegisteredError']);

/**
 * Runs a call of an activity tool: the user's activity of type `target.activityType`, scheduled on
 * its task queue with the call's parsed input, in the call's cancellation scope (an interrupt of a
 * `cancel` tool asks it to stop and does not wait). A scheduling no worker took within
 * `waitForWorkerMs`, or that a worker refused because it lacks the activity, never ran: the session
 * waits for a worker (`worker_waiting`, status `waiting_for_worker`) and schedules it again, until
 * the call ends (`worker_back`). Its output is the call's result; a failure reaches the caller as any tool activity's.
 */
export async function runActivityToolCall(
  session: Session,
  prepared: PreparedCall,
  target: ActivityToolTarget,
): Promise<DispatchedCall> {
  const { callId, toolName, execution } = prepared;
  const taskQueue = target.taskQueue ?? workflowInfo().taskQueue;
  const options: ActivityOptions = {
    // Stable per call, so the user's activity can key its effect on it, and the Web UI names the call.
    activityId: `toolrail/${String(session.state.turnIndex)}/${callId}`,
    taskQueue,
    startToCloseTimeout: execution.timeoutMs,
    scheduleToStartTimeout: target.waitForWorkerMs ?? defaultWaitForWorkerMs,
    ...(execution.heartbeatTimeoutMs === null ? {} : { heartbeatTimeout: execution.heartbeatTimeoutMs }),
    retry: {
      maximumAttempts: execution.retry.maximumAttempts,
      initialInterval: execution.retry.initialIntervalMs,
      backoffCoefficient: execution.retry.backoffCoefficient,
      maximumInterval: execution.retry.maximumIntervalMs,
    },
    cancellationType:
      prepared.interruptBehavior === 'cancel'
        ? ActivityCancellationType.TRY_CANCEL
        : ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    summary: `${toolName} (${callId})`,
  };
  const activity =
    proxyActivities<Record<string, (input: JsonValue) => Promise<JsonValue>>>(options)[target.activityType];
  if (activity === undefined) throw new Error(`no activity function for ${target.activityType}`);
  let waiting = false;
  try {
    for (;;) {
      try {
        const output = await activity(prepared.input);
        return { outcome: { type: 'tool-result', callId, toolName, output: output ?? null } };
      } catch (error) {
        const why = whyItNeverRan(error);
        if (why === undefined) throw error;
        if (!waiting) {
          const { activityType } = target;
          session.emit({
            type: 'worker_waiting',
            callId,
            tool: toolName,
            taskQueue,
            activityType,
            why,
            since: workflowNow(),
          });
        }
        waiting = true;
        if (why !== 'no worker took it') await sleep(notRegisteredPauseMs);
      }
    }
  } finally {
    // The wait ends with the call: its activity ran (and ended), or the call was interrupted.
    if (waiting) session.emit({ type: 'worker_back', callId });
  }
}

/** Why a failed scheduling never ran the activity (so it may be scheduled again), or `undefined` if it may have. */
function whyItNeverRan(error: unknown): string | undefined {
  if (!(error instanceof ActivityFailure)) return undefined;
  const { cause } = error;
  if (cause instanceof TimeoutFailure && cause.timeoutType === TimeoutType.SCHEDULE_TO_START)
    return 'no worker took it';
  if (
    cause instanceof ApplicationFailure &&
    cause.type !== null &&
    cause.type !== undefined &&
    notRegisteredTypes.has(cause.type)
  )
    return `a worker lacks it (${cause.message})`;
  return undefined;
}
