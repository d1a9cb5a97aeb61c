import type { JsonHistory, JsonHistoryEvent } from '../../test/helpers/run-chain';

/** Where a run's wall time went, by what was happening on its critical path, in ms. */
export interface TimeSplit {
  /** A workflow task was being processed by the worker (started → completed). */
  workflowTaskRunning: number;
  /** A workflow task waited to be picked up (scheduled → started). */
  workflowTaskQueued: number;
  /** No workflow task in flight, at least one activity running. */
  activityRunning: number;
  /** No workflow task in flight, activities waiting to be picked up. */
  activityQueued: number;
  /** Anything else (e.g. between a completed task and the next event). */
  other: number;
}

/** Counts and timings read from one run's history. */
export interface HistoryTimeline {
  events: number;
  workflowTasks: number;
  activities: number;
  markers: number;
  wallMs: number;
  split: TimeSplit;
  /** Mean durations, in ms. */
  mean: {
    workflowTaskQueued: number;
    workflowTaskRunning: number;
    activityQueued: number;
    activityRunning: Record<string, number>;
  };
}

interface Interval {
  kind: keyof Omit<TimeSplit, 'other'>;
  from: number;
  to: number;
}

const closedActivity = new Set([
  'EVENT_TYPE_ACTIVITY_TASK_COMPLETED',
  'EVENT_TYPE_ACTIVITY_TASK_FAILED',
  'EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT',
  'EVENT_TYPE_ACTIVITY_TASK_CANCELED',
]);

/** Reads the task and activity intervals of a history and splits its wall time by what ran. */
export function historyTimeline(history: JsonHistory): HistoryTimeline {
  const events = history.events;
  const timeOf = new Map<string, number>();
  const activityType = new Map<string, string>();
  const intervals: Interval[] = [];
  const runningByType = new Map<string, number[]>();
  for (const event of events) {
    const at = Date.parse(event.eventTime);
    timeOf.set(event.eventId, at);
    const attributes = attributesOf(event);
    switch (event.eventType) {
      case 'EVENT_TYPE_WORKFLOW_TASK_STARTED':
        intervals.push({ kind: 'workflowTaskQueued', from: timeAt(timeOf, attributes['scheduledEventId']), to: at });
        break;
      case 'EVENT_TYPE_WORKFLOW_TASK_COMPLETED':
      case 'EVENT_TYPE_WORKFLOW_TASK_FAILED':
      case 'EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT':
        intervals.push({ kind: 'workflowTaskRunning', from: timeAt(timeOf, attributes['startedEventId']), to: at });
        break;
      case 'EVENT_TYPE_ACTIVITY_TASK_SCHEDULED':
        activityType.set(
          event.eventId,
          String((attributes['activityType'] as { name?: string } | undefined)?.name ?? '?'),
        );
        break;
      case 'EVENT_TYPE_ACTIVITY_TASK_STARTED':
        intervals.push({ kind: 'activityQueued', from: timeAt(timeOf, attributes['scheduledEventId']), to: at });
        break;
      default:
        if (closedActivity.has(event.eventType) && attributes['startedEventId'] !== undefined) {
          const from = timeAt(timeOf, attributes['startedEventId']);
          intervals.push({ kind: 'activityRunning', from, to: at });
          const type = activityType.get(String(attributes['scheduledEventId'])) ?? '?';
          runningByType.set(type, [...(runningByType.get(type) ?? []), at - from]);
        }
    }
  }
  const first = timeOf.get(events[0]?.eventId ?? '') ?? 0;
  const last = timeOf.get(events[events.length - 1]?.eventId ?? '') ?? first;
  const meanOf = (kind: Interval['kind']): number =>
    mean(intervals.filter((interval) => interval.kind === kind).map(({ from, to }) => to - from));
  return {
    events: events.length,
    workflowTasks: events.filter(({ eventType }) => eventType === 'EVENT_TYPE_WORKFLOW_TASK_STARTED').length,
    activities: events.filter(({ eventType }) => eventType === 'EVENT_TYPE_ACTIVITY_TASK_SCHEDULED').length,
    markers: events.filter(({ eventType }) => eventType === 'EVENT_TYPE_MARKER_RECORDED').length,
    wallMs: last - first,
    split: splitWallTime(intervals, first, last),
    mean: {
      workflowTaskQueued: meanOf('workflowTaskQueued'),
      workflowTaskRunning: meanOf('workflowTaskRunning'),
      activityQueued: meanOf('activityQueued'),
      activityRunning: Object.fromEntries([...runningByType].map(([type, durations]) => [type, mean(durations)])),
    },
  };
}

/** Sweeps [first, last]: each instant counts for the first kind in `priority` that is in flight then. */
function splitWallTime(intervals: readonly Interval[], first: number, last: number): TimeSplit {
  const priority: Interval['kind'][] = [
    'workflowTaskRunning',
    'workflowTaskQueued',
    'activityRunning',
    'activityQueued',
  ];
  const split: TimeSplit = {
    workflowTaskRunning: 0,
    workflowTaskQueued: 0,
    activityRunning: 0,
    activityQueued: 0,
    other: 0,
  };
  const cuts = [...new Set([first, last, ...intervals.flatMap(({ from, to }) => [from, to])])]
    .filter((t) => t >= first && t <= last)
    .sort((a, b) => a - b);
  for (let index = 0; index + 1 < cuts.length; index++) {
    const from = cuts[index] ?? 0;
    const to = cuts[index + 1] ?? from;
    const kind = priority.find((candidate) =>
      intervals.some((interval) => interval.kind === candidate && interval.from <= from && interval.to >= to),
    );
    split[kind ?? 'other'] += to - from;
  }
  return split;
}

function attributesOf(event: JsonHistoryEvent): Record<string, unknown> {
  const key = Object.keys(event).find((name) => name.endsWith('EventAttributes'));
  const value = key === undefined ? undefined : event[key];
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function timeAt(timeOf: ReadonlyMap<string, number>, eventId: unknown): number {
  return timeOf.get(String(eventId)) ?? Number.NaN;
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}
