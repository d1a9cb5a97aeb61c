import type { temporal } from '@temporalio/proto';

/** Billable Temporal Cloud actions, by kind (docs: cloud/actions). */
export interface BillableActions {
  /** Workflow starts (continue-as-new too). */
  starts: number;
  /** Activity attempts (a retried activity counts each). */
  activityAttempts: number;
  timers: number;
  /** Search-attribute upserts (`TemporalChangeVersion` alone exempt). */
  upserts: number;
  signals: number;
  /** Updates accepted (the bench sends none that are rejected). */
  updates: number;
  /** Workflow tasks that ran local activities (one action each, however many ran). */
  localActivityTasks: number;
  /** Queries the server received (its metrics). */
  queries: number;
  /** Activity heartbeats that reached the server (its metrics). */
  heartbeats: number;
}

/** The sum of the kinds. */
export function totalActions(actions: BillableActions): number {
  const { starts, activityAttempts, timers, upserts, signals, updates, localActivityTasks, queries, heartbeats } =
    actions;
  return starts + activityAttempts + timers + upserts + signals + updates + localActivityTasks + queries + heartbeats;
}

/** The actions a workflow run's history shows; queries and heartbeats (not in history) as given. */
export function billableActions(
  events: readonly temporal.api.history.v1.IHistoryEvent[],
  { queries = 0, heartbeats = 0 }: { queries?: number; heartbeats?: number } = {},
): BillableActions {
  const count: BillableActions = {
    starts: 0,
    activityAttempts: 0,
    timers: 0,
    upserts: 0,
    signals: 0,
    updates: 0,
    localActivityTasks: 0,
    queries,
    heartbeats,
  };
  const tasksWithLocalActivities = new Set<string>();
  for (const event of events) {
    if (event.workflowExecutionStartedEventAttributes) count.starts += 1;
    if (event.activityTaskStartedEventAttributes)
      count.activityAttempts += event.activityTaskStartedEventAttributes.attempt ?? 1;
    if (event.timerStartedEventAttributes) count.timers += 1;
    const upserted = event.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields;
    if (upserted && Object.keys(upserted).some((key) => key !== 'TemporalChangeVersion')) count.upserts += 1;
    if (event.workflowExecutionSignaledEventAttributes) count.signals += 1;
    if (event.workflowExecutionUpdateAcceptedEventAttributes) count.updates += 1;
    const marker = event.markerRecordedEventAttributes;
    if (marker?.markerName === 'core_local_activity')
      tasksWithLocalActivities.add(String(marker.workflowTaskCompletedEventId));
  }
  count.localActivityTasks = tasksWithLocalActivities.size;
  return count;
}
