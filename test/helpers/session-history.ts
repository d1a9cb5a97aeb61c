import { defaultPayloadConverter } from '@temporalio/common';
import type { SessionHandle } from '../../src/client/session-handle';

/** One history event in proto JSON form (`eventType` without its `EVENT_TYPE_` prefix). */
export interface HistoryEvent {
  eventId: number;
  /** Server clock, epoch ms. */
  time: number;
  type: string;
  /** The event's `…EventAttributes` object. */
  attributes: Record<string, unknown>;
}

/** One activity's life in the history, from its scheduling to its close. */
export interface ActivityTimeline {
  activityType: string;
  /** The first argument the workflow passed, decoded, as history holds it. */
  input: unknown;
  /** What the activity returned, decoded, as history holds it (once it completed). */
  result?: unknown;
  /** The most attempts Temporal makes (0: unlimited), from the scheduled event's retry policy. */
  maximumAttempts: number;
  scheduledEventId: number;
  /** The workflow task whose completion scheduled it: equal ids mean scheduled together. */
  workflowTaskCompletedEventId: number;
  scheduledAt: number;
  startedAt?: number;
  closedAt?: number;
  closedEventId?: number;
  closedAs?: 'completed' | 'failed' | 'canceled' | 'timed_out';
  cancelRequestedEventId?: number;
}

/** An accepted `approveToolCall` (or other) update, decoded. */
export interface AcceptedUpdate {
  name: string;
  updateId: string;
  args: unknown[];
}

/** A session's history (its current run), read for assertions. */
export class SessionHistory {
  readonly events: readonly HistoryEvent[];

  constructor(events: readonly HistoryEvent[]) {
    this.events = events;
  }

  /** Events of one type, e.g. `ACTIVITY_TASK_CANCEL_REQUESTED`. */
  ofType(type: string): HistoryEvent[] {
    return this.events.filter((event) => event.type === type);
  }

  /** The run's start input (the workflow's first argument), decoded. */
  startInput(): unknown {
    const [started] = this.ofType('WORKFLOW_EXECUTION_STARTED');
    const payloads = readPath(started?.attributes, ['input', 'payloads']);
    return Array.isArray(payloads) ? decodePayload(payloads[0]) : undefined;
  }

  /** Every activity, in scheduling order. */
  activities(): ActivityTimeline[] {
    const byScheduledId = new Map<number, ActivityTimeline>();
    for (const event of this.events) {
      const { attributes } = event;
      if (event.type === 'ACTIVITY_TASK_SCHEDULED') {
        const payloads = readPath(attributes, ['input', 'payloads']);
        byScheduledId.set(event.eventId, {
          activityType: String(readPath(attributes, ['activityType', 'name'])),
          input: Array.isArray(payloads) ? decodePayload(payloads[0]) : undefined,
          scheduledEventId: event.eventId,
          workflowTaskCompletedEventId: Number(attributes['workflowTaskCompletedEventId']),
          scheduledAt: event.time,
          maximumAttempts: Number(readPath(attributes, ['retryPolicy', 'maximumAttempts']) ?? 0),
        });
        continue;
      }
      const activity = byScheduledId.get(Number(attributes['scheduledEventId']));
      if (activity === undefined) continue;
      if (event.type === 'ACTIVITY_TASK_STARTED') activity.startedAt = event.time;
      else if (event.type === 'ACTIVITY_TASK_CANCEL_REQUESTED') activity.cancelRequestedEventId = event.eventId;
      else {
        const closedAs = closeTypes.get(event.type);
        if (closedAs === undefined) continue;
        activity.closedAs = closedAs;
        activity.closedAt = event.time;
        activity.closedEventId = event.eventId;
        const payloads = readPath(attributes, ['result', 'payloads']);
        if (Array.isArray(payloads)) activity.result = decodePayload(payloads[0]);
      }
    }
    return [...byScheduledId.values()];
  }

  /** The `executeTool` activities of the call with this id (one per workflow run that scheduled it). */
  toolActivity(callId: string): ActivityTimeline {
    const found = this.activities().filter(
      (activity) => activity.activityType === 'executeTool' && readPath(activity.input, ['call', 'callId']) === callId,
    );
    if (found.length !== 1) throw new Error(`expected one executeTool activity for ${callId}, found ${found.length}`);
    return found[0] as ActivityTimeline;
  }

  /** Call ids of every `executeTool` activity, in scheduling order. */
  toolCallIds(): string[] {
    return this.activities()
      .filter((activity) => activity.activityType === 'executeTool')
      .map((activity) => String(readPath(activity.input, ['call', 'callId'])));
  }

  /** Every update the workflow accepted, decoded. */
  acceptedUpdates(): AcceptedUpdate[] {
    return this.ofType('WORKFLOW_EXECUTION_UPDATE_ACCEPTED').map(({ attributes }) => {
      const payloads = readPath(attributes, ['acceptedRequest', 'input', 'args', 'payloads']);
      return {
        name: String(readPath(attributes, ['acceptedRequest', 'input', 'name'])),
        updateId: String(readPath(attributes, ['acceptedRequest', 'meta', 'updateId'])),
        args: Array.isArray(payloads) ? payloads.map(decodePayload) : [],
      };
    });
  }

  /** Every signal the workflow received, decoded. */
  signals(): { name: string; args: unknown[] }[] {
    return this.ofType('WORKFLOW_EXECUTION_SIGNALED').map(({ attributes }) => {
      const payloads = readPath(attributes, ['input', 'payloads']);
      return {
        name: String(attributes['signalName']),
        args: Array.isArray(payloads) ? payloads.map(decodePayload) : [],
      };
    });
  }
}

/** Fetches the history of a session's current workflow run. */
export async function readSessionHistory(session: SessionHandle): Promise<SessionHistory> {
  const history = await session.workflow.fetchHistory();
  return new SessionHistory((history.events ?? []).map(toHistoryEvent));
}

const closeTypes = new Map<string, NonNullable<ActivityTimeline['closedAs']>>([
  ['ACTIVITY_TASK_COMPLETED', 'completed'],
  ['ACTIVITY_TASK_FAILED', 'failed'],
  ['ACTIVITY_TASK_CANCELED', 'canceled'],
  ['ACTIVITY_TASK_TIMED_OUT', 'timed_out'],
]);

function toHistoryEvent(event: object): HistoryEvent {
  const record = event as Record<string, unknown>;
  // Which `…EventAttributes` field is set tells the type (the numeric enum needs the proto package).
  const key = Object.keys(record).find((name) => name.endsWith('EventAttributes') && record[name] != null) ?? '';
  const attributes = record[key];
  return {
    eventId: Number(String(record['eventId'])),
    time: timestampMs(record['eventTime']),
    type: key
      .replace(/EventAttributes$/, '')
      .replace(/[A-Z]/g, (letter) => `_${letter}`)
      .toUpperCase(),
    attributes: isRecord(attributes) ? attributes : {},
  };
}

/** A protobuf timestamp in epoch ms, sub-millisecond digits kept. */
function timestampMs(value: unknown): number {
  if (!isRecord(value)) return Number.NaN;
  const { seconds, nanos } = value;
  // `seconds` is a protobuf Long (or a number): both print as their decimal value.
  const wholeSeconds =
    typeof seconds === 'number' ? seconds : Number((seconds as { toString(): string } | null)?.toString() ?? 0);
  return wholeSeconds * 1_000 + Number(nanos ?? 0) / 1_000_000;
}

/** Decodes a payload with the default converter; `undefined` for a missing one. */
function decodePayload(payload: unknown): unknown {
  return isRecord(payload) ? defaultPayloadConverter.fromPayload<unknown>(payload) : undefined;
}

function readPath(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path) {
    if (!isRecord(current)) return undefined;
    current = current[key];
  }
  return current;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
