import type { Client } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import type { JSONPayload } from '@temporalio/common/lib/proto-utils';
import { historyToJsonValue } from './history-json';

/**
 * One history event in Temporal's JSON form (what `temporal workflow show --output json` prints):
 * `eventType` is `EVENT_TYPE_…`, `eventTime` an RFC 3339 string, attributes keyed by their proto name.
 */
export interface JsonHistoryEvent {
  eventId: string;
  eventTime: string;
  eventType: string;
  workflowExecutionStartedEventAttributes?: {
    input?: { payloads?: JSONPayload[] };
    firstExecutionRunId?: string;
    continuedExecutionRunId?: string;
  };
  workflowExecutionContinuedAsNewEventAttributes?: { newExecutionRunId?: string };
  [attributes: string]: unknown;
}

/** A history in Temporal's JSON form. */
export interface JsonHistory {
  events: JsonHistoryEvent[];
}

/** One run of a workflow's continue-as-new chain, with its full history. */
export interface WorkflowRun {
  workflowId: string;
  runId: string;
  history: JsonHistory;
}

/** Fetches the history of one run (the latest when `runId` is omitted), in JSON form. */
export async function fetchJsonHistory(client: Client, workflowId: string, runId?: string): Promise<JsonHistory> {
  const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
  return historyToJsonValue(history) as JsonHistory;
}

/**
 * Every run of a workflow's chain, first to last: finds the first run from the latest run's start
 * event, then follows each `WORKFLOW_EXECUTION_CONTINUED_AS_NEW` event to the run it started.
 */
export async function fetchRunChain(client: Client, workflowId: string): Promise<WorkflowRun[]> {
  const latest = await fetchJsonHistory(client, workflowId);
  const firstRunId = startedAttributes(latest).firstExecutionRunId;
  if (!firstRunId) throw new Error(`workflow ${workflowId}: its start event names no first run`);
  const runs: WorkflowRun[] = [];
  for (let runId: string | undefined = firstRunId; runId !== undefined;) {
    const history: JsonHistory = await fetchJsonHistory(client, workflowId, runId);
    runs.push({ workflowId, runId, history });
    const last = history.events[history.events.length - 1];
    runId =
      last?.eventType === 'EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW'
        ? last.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId
        : undefined;
  }
  return runs;
}

/** The attributes of a history's `WORKFLOW_EXECUTION_STARTED` event. */
export function startedAttributes(
  history: JsonHistory,
): NonNullable<JsonHistoryEvent['workflowExecutionStartedEventAttributes']> {
  const attributes = history.events[0]?.workflowExecutionStartedEventAttributes;
  if (!attributes) throw new Error('the history does not begin with WORKFLOW_EXECUTION_STARTED');
  return attributes;
}

/** The first argument a run was started with, decoded from its start event. */
export function startInput<T>(history: JsonHistory): T {
  const payload = startedAttributes(history).input?.payloads?.[0];
  if (!payload) throw new Error('the run was started without input');
  return decodeJsonPayload<T>(payload);
}

/** A payload of a history in JSON form, decoded by the default payload converter. */
export function decodeJsonPayload<T>(payload: JSONPayload): T {
  return defaultPayloadConverter.fromPayload<T>({
    metadata: Object.fromEntries(
      Object.entries(payload.metadata ?? {}).map(([key, value]) => [key, Buffer.from(value, 'base64')]),
    ),
    data: Buffer.from(payload.data ?? '', 'base64'),
  });
}

/** An event's type without the `EVENT_TYPE_` prefix, e.g. `ACTIVITY_TASK_SCHEDULED`. */
export function eventTypeName(event: JsonHistoryEvent): string {
  return event.eventType.replace(/^EVENT_TYPE_/, '');
}

/** The event types of a history, without prefix, in order. */
export function eventTypeNames(history: JsonHistory): string[] {
  return history.events.map(eventTypeName);
}
