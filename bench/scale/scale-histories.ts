import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { inParallel } from './in-parallel';

const { EventType, TaskQueueKind, TimeoutType } = temporal.api.enums.v1;
type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** What the histories of a set of sessions show, summed over every run of each. */
export interface HistoryFigures {
  bytes: number;
  events: number;
  runs: number;
  /** Every workflow task that timed out, with its session and times (to be matched with the server's log). */
  workflowTaskTimeouts: WorkflowTaskTimeout[];
  /** Workflow-task schedule-to-start times, in ms. */
  workflowTaskWaits: number[];
  /** Per turn: from one model call's scheduling to the next one's (the last: to the session's end), in ms. */
  turnLatencies: number[];
  /** Bytes by event type (and activity type), for the breakdown of a turn. */
  bytesByKind: Map<string, { bytes: number; events: number }>;
}

/** One workflow task that timed out: its session, what timed out, and when (ms since the epoch). */
export interface WorkflowTaskTimeout {
  workflowId: string;
  /** What timed out: `schedule-to-start` or `start-to-close`, on the `sticky` or `normal` queue. */
  kind: string;
  scheduledAt: number | undefined;
  /** When a worker took it; undefined for a task no worker took. */
  startedAt: number | undefined;
  timedOutAt: number;
}

/** Reads the histories of `workflowIds` (every run of each), `concurrency` at a time. */
export async function readHistories(
  client: Client,
  workflowIds: readonly string[],
  modelActivity: string,
  concurrency = 16,
): Promise<HistoryFigures> {
  const figures: HistoryFigures = {
    bytes: 0,
    events: 0,
    runs: 0,
    workflowTaskTimeouts: [],
    workflowTaskWaits: [],
    turnLatencies: [],
    bytesByKind: new Map(),
  };
  await inParallel(workflowIds, concurrency, (workflowId) => readSession(client, workflowId, modelActivity, figures));
  return figures;
}

async function readSession(
  client: Client,
  workflowId: string,
  modelActivity: string,
  figures: HistoryFigures,
): Promise<void> {
  const latest = await client.workflow.getHandle(workflowId).fetchHistory();
  let runId: string | undefined =
    latest.events?.[0]?.workflowExecutionStartedEventAttributes?.firstExecutionRunId ?? undefined;
  let previousModelCall: number | undefined;
  let end = 0;
  while (runId) {
    const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    const events = history.events ?? [];
    figures.runs += 1;
    const scheduledAt = new Map<string, number>();
    const startedAt = new Map<string, number>();
    const queueKinds = new Map<string, string>();
    const activityTypes = new Map<string, string>();
    for (const event of events) {
      const bytes = temporal.api.history.v1.HistoryEvent.encode(event).finish().length;
      figures.bytes += bytes;
      figures.events += 1;
      const at = timeOf(event);
      const kind = kindOf(event, activityTypes);
      const counted = figures.bytesByKind.get(kind) ?? { bytes: 0, events: 0 };
      counted.bytes += bytes;
      counted.events += 1;
      figures.bytesByKind.set(kind, counted);
      switch (event.eventType) {
        case EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED:
          scheduledAt.set(String(event.eventId), at);
          queueKinds.set(
            String(event.eventId),
            event.workflowTaskScheduledEventAttributes?.taskQueue?.kind === TaskQueueKind.TASK_QUEUE_KIND_STICKY
              ? 'sticky'
              : 'normal',
          );
          break;
        case EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED: {
          const scheduledEventId = String(event.workflowTaskStartedEventAttributes?.scheduledEventId);
          const scheduled = scheduledAt.get(scheduledEventId);
          if (scheduled !== undefined) figures.workflowTaskWaits.push(at - scheduled);
          startedAt.set(scheduledEventId, at);
          break;
        }
        case EventType.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT: {
          const scheduledEventId = String(event.workflowTaskTimedOutEventAttributes?.scheduledEventId);
          figures.workflowTaskTimeouts.push({
            workflowId,
            kind: timeoutKind(event, queueKinds),
            scheduledAt: scheduledAt.get(scheduledEventId),
            startedAt: startedAt.get(scheduledEventId),
            timedOutAt: at,
          });
          break;
        }
        case EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
          if (event.activityTaskScheduledEventAttributes?.activityType?.name === modelActivity) {
            if (previousModelCall !== undefined) figures.turnLatencies.push(at - previousModelCall);
            previousModelCall = at;
          }
          break;
        default:
          break;
      }
      end = at;
    }
    runId = events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
  }
  // The last model call answers without a call: it ends the session, and closes the last turn.
  if (previousModelCall !== undefined) figures.turnLatencies.push(end - previousModelCall);
}

/** What a workflow-task timeout was: its timeout type and the queue its task was on, as `start-to-close on the sticky queue`. */
export function timeoutKind(event: HistoryEvent, queueKinds: ReadonlyMap<string, string>): string {
  const timedOut = event.workflowTaskTimedOutEventAttributes;
  const type = TimeoutType[timedOut?.timeoutType ?? 0] ?? 'UNKNOWN';
  const queue = queueKinds.get(String(timedOut?.scheduledEventId)) ?? 'unknown';
  return `${type
    .replace(/^TIMEOUT_TYPE_/, '')
    .toLowerCase()
    .replaceAll('_', '-')} on the ${queue} queue`;
}

function timeOf(event: HistoryEvent): number {
  const time = event.eventTime;
  return Number(time?.seconds ?? 0) * 1000 + Math.floor((time?.nanos ?? 0) / 1e6);
}

/** The event's type, without the prefix; activity events with the activity's type. */
function kindOf(event: HistoryEvent, activityTypes: Map<string, string>): string {
  const type = (EventType[event.eventType ?? 0] ?? 'UNKNOWN').replace(/^EVENT_TYPE_/, '');
  const scheduled = event.activityTaskScheduledEventAttributes;
  if (scheduled) {
    const name = scheduled.activityType?.name ?? '?';
    activityTypes.set(String(event.eventId), name);
    return `${type} ${name}`;
  }
  const scheduledEventId =
    event.activityTaskStartedEventAttributes?.scheduledEventId ??
    event.activityTaskCompletedEventAttributes?.scheduledEventId ??
    event.activityTaskFailedEventAttributes?.scheduledEventId;
  if (scheduledEventId !== undefined && scheduledEventId !== null)
    return `${type} ${activityTypes.get(String(scheduledEventId)) ?? '?'}`;
  const marker = event.markerRecordedEventAttributes;
  if (marker) return `${type} ${marker.markerName ?? ''}`;
  return type;
}
