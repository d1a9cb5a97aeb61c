import { ActivityCancellationType, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { PreparedCall } from '../../src/dispatch/prepared-call';
import type { ToolOutcome } from '../../src/dispatch/tool-outcome';
import type { SessionActivities } from '../../activities/types';

/** Heartbeat timeout for tools that declare none, in ms: the activity wrapper heartbeats for them. */
const defaultHeartbeatTimeoutMs = 10_000;

/** Which call to execute, for whom. */
export interface ExecuteToolOptions {
  sessionId: string;
  turn: number;
  interactive: boolean;
  prepared: PreparedCall;
  approved: boolean;
}

/**
 * Schedules the activity that executes one prepared call, with the call's own timeouts and retry
 * policy (destructive and writing tools run at most once). Tool activities wait for their
 * cancellation to be acknowledged (they heartbeat, so a cancel arrives within the heartbeat
 * throttle), so a cancelled tool never keeps running unseen; a dead worker is noticed at the
 * heartbeat timeout. Read-only, non-destructive calls of tools that opt in (`localActivity`) run as
 * local activities instead: no task-queue round trip, one marker event.
 */
export function executeToolActivity({
  sessionId,
  turn,
  interactive,
  prepared,
  approved,
}: ExecuteToolOptions): Promise<ToolOutcome> {
  const { execution } = prepared;
  const retry = {
    maximumAttempts: execution.retry.maximumAttempts,
    initialInterval: execution.retry.initialIntervalMs,
    backoffCoefficient: execution.retry.backoffCoefficient,
    maximumInterval: execution.retry.maximumIntervalMs,
  };
  const summary = `${prepared.toolName} (${prepared.callId})`;
  if (execution.localActivity === true && prepared.readOnly && !prepared.destructive) {
    const { executeTool } = proxyLocalActivities<SessionActivities>({
      startToCloseTimeout: execution.timeoutMs,
      cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
      summary,
      retry,
    });
    return executeTool({ sessionId, turn, interactive, prepared, approved });
  }
  const { executeTool } = proxyActivities<SessionActivities>({
    startToCloseTimeout: execution.timeoutMs,
    heartbeatTimeout: execution.heartbeatTimeoutMs ?? defaultHeartbeatTimeoutMs,
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    summary,
    retry,
  });
  return executeTool({ sessionId, turn, interactive, prepared, approved });
}
