import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

/** Sizes of one run of a workflow's continue-as-new chain, in bytes of its encoded history. */
export interface RunHistorySize {
  runId: string;
  /** The whole history of the run, protobuf-encoded as the server stores it. */
  historyBytes: number;
  /** The run's input payloads (for a continued run: what continue-as-new carried). */
  inputBytes: number;
  events: number;
}

/** The encoded size of every run of a workflow's chain, first to last. */
export async function runHistorySizes(client: Client, workflowId: string): Promise<RunHistorySize[]> {
  const latest = await client.workflow.getHandle(workflowId).fetchHistory();
  let runId = latest.events?.[0]?.workflowExecutionStartedEventAttributes?.firstExecutionRunId ?? undefined;
  const sizes: RunHistorySize[] = [];
  while (runId) {
    const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    const events = history.events ?? [];
    const payloads = events[0]?.workflowExecutionStartedEventAttributes?.input?.payloads ?? [];
    sizes.push({
      runId,
      historyBytes: temporal.api.history.v1.History.encode(history).finish().length,
      inputBytes: payloads.reduce(
        (sum, payload) => sum + temporal.api.common.v1.Payload.encode(payload).finish().length,
        0,
      ),
      events: events.length,
    });
    runId = events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
  }
  return sizes;
}
