import { ActivityCancellationType, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { SessionActivities } from '../../activities/types';

/**
 * The model call as an activity. Cancelling it (an interrupt) does not wait for the activity to
 * acknowledge: a model call has no side effects, the activity aborts its HTTP request at its next
 * heartbeat, and the workflow moves on at once.
 */
export function modelActivities(timeoutMs: number): Pick<SessionActivities, 'callModel'> {
  return proxyActivities<SessionActivities>({
    startToCloseTimeout: timeoutMs,
    heartbeatTimeout: 30_000,
    cancellationType: ActivityCancellationType.TRY_CANCEL,
    retry: { maximumAttempts: 5, initialInterval: 1_000, backoffCoefficient: 2, maximumInterval: 30_000 },
  });
}

/** Loading the catalog is a quick lookup in the worker's registry: a local activity (one marker event). */
export const { loadCatalog } = proxyLocalActivities<SessionActivities>({
  startToCloseTimeout: 30_000,
  retry: { maximumAttempts: 3 },
});
