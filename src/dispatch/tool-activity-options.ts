import { ActivityCancellationType } from '@temporalio/common';
import type { ActivityOptions } from '@temporalio/common';
import { TOOL_RESULT_STORE_MARGIN_MS } from './defaults';
import type { PreparedCall } from './prepared-call';

/** Heartbeat timeout of tools that declare none, in milliseconds: the activity wrapper heartbeats for them. */
export const DEFAULT_TOOL_HEARTBEAT_TIMEOUT_MS = 10_000;

/**
 * How the workflow schedules one prepared call: the call's own timeout (plus the time to store its
 * result, `TOOL_RESULT_STORE_MARGIN_MS`) and retry policy (destructive and writing tools run at
 * most once), waiting for a cancellation to be acknowledged
 * (tools heartbeat, so a cancel arrives within the heartbeat throttle; a dead worker is noticed at
 * the heartbeat timeout). `local` is set for read-only, non-destructive calls of tools that opt in
 * (`localActivity`): they run as local activities, with no heartbeat.
 */
export function toolActivityOptions(prepared: PreparedCall): { local: boolean; options: ActivityOptions } {
  const { execution } = prepared;
  const local = execution.localActivity === true && prepared.readOnly && !prepared.destructive;
  const options: ActivityOptions = {
    startToCloseTimeout: execution.timeoutMs + TOOL_RESULT_STORE_MARGIN_MS,
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    summary: `${prepared.toolName} (${prepared.callId})`,
    retry: {
      maximumAttempts: execution.retry.maximumAttempts,
      initialInterval: execution.retry.initialIntervalMs,
      backoffCoefficient: execution.retry.backoffCoefficient,
      maximumInterval: execution.retry.maximumIntervalMs,
    },
    ...(local ? {} : { heartbeatTimeout: execution.heartbeatTimeoutMs ?? DEFAULT_TOOL_HEARTBEAT_TIMEOUT_MS }),
  };
  return { local, options };
}
