import type { WorkflowClient } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { FeedReader } from './feed-reader';

/** The wait for one session's close, shared by its readers on one client. */
interface SharedWait {
  readonly listeners: Set<(runId: string) => void>;
  readonly stop: AbortController;
  /** The run that closed the session, once it has. */
  closed?: string;
}

const waits = new WeakMap<WorkflowClient, Map<string, SharedWait>>();

/**
 * Calls `listener` with the session's last run once it has closed (following continue-as-new from
 * `runId` on). The readers of one session on one client share one long poll
 * (`GetWorkflowExecutionHistory` for the run's close event, which the server answers when it
 * closes), however many they are. Returns the function that stops listening; the poll stops with
 * its last listener.
 */
export function whenSessionCloses(
  client: WorkflowClient,
  sessionId: string,
  runId: string,
  listener: (runId: string) => void,
): () => void {
  let sessions = waits.get(client);
  if (sessions === undefined) {
    sessions = new Map();
    waits.set(client, sessions);
  }
  let wait = sessions.get(sessionId);
  if (wait === undefined) {
    const started: SharedWait = { listeners: new Set(), stop: new AbortController() };
    wait = started;
    sessions.set(sessionId, started);
    void waitForLastRun(client, sessionId, runId, started.stop.signal).then((closed) => {
      if (closed === undefined) return;
      started.closed = closed;
      for (const each of started.listeners) each(closed);
    });
  }
  const shared = wait;
  if (shared.closed !== undefined) {
    const closed = shared.closed;
    queueMicrotask(() => listener(closed));
  }
  shared.listeners.add(listener);
  return () => {
    shared.listeners.delete(listener);
    if (shared.listeners.size > 0) return;
    shared.stop.abort();
    if (sessions.get(sessionId) === shared) sessions.delete(sessionId);
  };
}

/** The session's run that closed otherwise than by continuing as new; undefined when aborted or gone. */
async function waitForLastRun(
  client: WorkflowClient,
  sessionId: string,
  runId: string,
  signal: AbortSignal,
): Promise<string | undefined> {
  const reader = new FeedReader(client, sessionId, signal);
  try {
    for (let run = runId; ;) {
      const closed = await reader.retrying(() =>
        client.withAbortSignal(signal, () => closeEvent(client, sessionId, run)),
      );
      const newRunId = closed?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId;
      if (!newRunId) return run;
      run = newRunId;
    }
  } catch {
    // Aborted (no reader is left), or the run is gone: the readers end with the session's last event.
    return undefined;
  }
}

/** The close event of a run, once it is closed (one long poll at a time). */
async function closeEvent(
  client: WorkflowClient,
  sessionId: string,
  runId: string,
): Promise<temporal.api.history.v1.IHistoryEvent | undefined> {
  let nextPageToken: Uint8Array | null = null;
  for (;;) {
    const response: temporal.api.workflowservice.v1.IGetWorkflowExecutionHistoryResponse =
      await client.workflowService.getWorkflowExecutionHistory({
        namespace: client.options.namespace,
        execution: { workflowId: sessionId, runId },
        nextPageToken,
        waitNewEvent: true,
        historyEventFilterType: temporal.api.enums.v1.HistoryEventFilterType.HISTORY_EVENT_FILTER_TYPE_CLOSE_EVENT,
        skipArchival: true,
      });
    const closed = response.history?.events?.[0];
    if (closed !== undefined) return closed;
    nextPageToken = response.nextPageToken?.length ? response.nextPageToken : null;
  }
}
