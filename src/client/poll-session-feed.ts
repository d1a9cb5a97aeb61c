import type { WorkflowClient } from '@temporalio/client';
import type { FeedEvent } from '../session';
import { FeedReader } from './feed-reader';

/**
 * The feed read with Temporal's primitives alone (see `followSessionFeed`): the current run's
 * history long-polled, and the `feed` query read after each completed workflow task. Returns quietly
 * when `signal` aborts.
 */
export async function* pollSessionFeed(
  client: WorkflowClient,
  sessionId: string,
  { from, signal }: { from: number; signal?: AbortSignal },
): AsyncGenerator<FeedEvent, void, undefined> {
  const feed = new FeedReader(client, sessionId, signal);
  let offset = from;
  try {
    let runId: string | undefined = (await feed.retrying(() => client.getHandle(sessionId).describe())).runId;
    while (runId !== undefined && !feed.aborted) {
      const history = feed.history(runId);
      let previousRunId: string | undefined;
      let nextRunId: string | undefined;
      for (;;) {
        const batch = await history.next();
        if (batch === undefined) return; // aborted
        for (const event of batch.events) {
          previousRunId ||= event.workflowExecutionStartedEventAttributes?.continuedExecutionRunId || undefined;
          nextRunId ||= event.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId || undefined;
        }
        // The feed changes only in workflow tasks: read it once one has completed (then it is durable).
        // A run that continued as new is not read: the next run holds its newest events (and reads it if need be).
        const changed = batch.events.some((event) => event.workflowTaskCompletedEventAttributes != null);
        if (nextRunId === undefined && (changed || batch.closed)) {
          for await (const event of feed.drain(runId, offset, previousRunId)) {
            if (feed.aborted) return;
            offset = event.offset + 1;
            yield event;
          }
        }
        if (batch.closed) break;
      }
      // A continued run goes on in the next one (which holds the newest events again); any other end ends the feed.
      runId = nextRunId;
    }
  } catch (error) {
    // An abort ends the iteration quietly, whatever call it cut short.
    if (!feed.aborted) throw error;
  }
}
