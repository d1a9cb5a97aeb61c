import type { WorkflowClient } from '@temporalio/client';
import type { LiveChannel } from '../live';
import type { FeedEvent } from '../session';
import { FeedReader } from './feed-reader';
import { LiveTextOrder } from './live-text-order';
import { acquireSessionFeedHub } from './session-feed-hub';

/**
 * A session's feed through a live channel, from offset `from` on: every event once, in order,
 * until the session's last run has closed (or `signal` aborts), with the text of streaming model
 * calls as it is written.
 *
 * The readers of one session in this process share a hub (`SessionFeedHub`): one subscription to
 * the session's topic, one read of the durable feed (the `feed` query) when it starts, and the
 * events the channel brings from then on, which are the durable ones (the workers publish a
 * workflow task's events once its completion is in the history). The hub reads the feed again only
 * when it must: events that skip an offset (a lost message, a publisher it did not hear yet, a hub
 * that fell behind), a `more`, or the subscription coming up again; while the subscription is down
 * it reads the feed as without a channel (history long-poll and a query per workflow task), and
 * goes back to the channel once it is up. It keeps its newest events, so a reader that starts at
 * a recent offset costs no query; a reader that starts before them reads those with queries itself.
 * The reader ends after the session's last run has closed (`session_ended`, or what a run that was
 * terminated holds).
 */
export async function* followLiveSessionFeed(
  client: WorkflowClient,
  sessionId: string,
  { from, signal, live }: { from: number; signal?: AbortSignal; live: LiveChannel },
): AsyncGenerator<FeedEvent, void, undefined> {
  const hub = acquireSessionFeedHub(client, live, sessionId);
  const reader = new FeedReader(client, sessionId, signal);
  const text = new LiveTextOrder();
  let next = from;
  /** The absolute number of the hub's next item for this reader; undefined while it reads on its own. */
  let cursor: number | undefined;
  /** Whether the feed said the reader's offset is not past its end. */
  let checked = false;
  try {
    await hub.ready;
    while (!reader.aborted) {
      if (hub.error !== undefined) throw hub.error;
      cursor ??= hub.itemOf(next);
      if (cursor === undefined || cursor < hub.base) {
        cursor = undefined;
        if (hub.next !== undefined && next > hub.next) {
          // Past what the hub holds: once, the feed says whether it is past the end (it throws);
          // else the hub catches up.
          if (!checked) {
            const { runId } = await reader.retrying(() => client.getHandle(sessionId).describe());
            await reader.page(runId, next, 1);
            checked = true;
          }
          await hub.changed(signal);
          continue;
        }
        // Before what the hub holds: read with queries (from the runs before, too) until the hub's events begin.
        const { runId } = await reader.retrying(() => client.getHandle(sessionId).describe());
        for await (const event of reader.drain(runId, next, undefined)) {
          if (event.offset < next) continue;
          next = event.offset + 1;
          yield event;
          yield* text.delivered(event);
          if (hub.itemOf(next) !== undefined) break;
        }
        continue;
      }
      for (; cursor < hub.base + hub.items.length; cursor += 1) {
        if (cursor < hub.base) break;
        const item = hub.items[cursor - hub.base];
        if (item === undefined) break;
        if ('piece' in item) {
          yield* text.offered(item.piece, next - 1);
          continue;
        }
        if (item.event.offset < next) continue;
        if (item.event.offset > next) {
          cursor = undefined;
          break;
        }
        next += 1;
        yield item.event;
        yield* text.delivered(item.event);
      }
      if (cursor !== undefined && cursor < hub.base) cursor = undefined;
      if (cursor === undefined) continue;
      if (hub.closed && cursor >= hub.base + hub.items.length) return;
      await hub.changed(signal);
    }
  } catch (error) {
    // An abort ends the iteration quietly, whatever call it cut short.
    if (!reader.aborted) throw error;
  } finally {
    hub.release();
  }
}
