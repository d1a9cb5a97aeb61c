import type { WorkflowClient } from '@temporalio/client';
import type { FeedEvent } from '../session';
import type { LiveChannel } from '../live';
import { followLiveSessionFeed } from './live-session-feed';
import { pollSessionFeed } from './poll-session-feed';

export { FeedGapError } from './feed-gap-error';

/** Options of `SessionHandle.events`. */
export interface SessionEventsOptions {
  /** The first offset to deliver. Defaults to 0, the session's first event. */
  from?: number;
  /** Aborting it ends the iteration (the iterator returns). */
  signal?: AbortSignal;
}

/** Options of {@link followSessionFeed}. */
export interface FollowSessionFeedOptions extends SessionEventsOptions {
  /**
   * The live channel the session's workers publish on: the feed then arrives through it, read from
   * the durable feed only to catch up (see `followLiveSessionFeed`). Without one, the feed is read
   * with queries, one per completed workflow task.
   */
  live?: LiveChannel;
}

/**
 * A session's live feed, from offset `from` on, as it happens: every event once, in order, until
 * the session ends (or `signal` aborts).
 *
 * How it works, on Temporal's own primitives and without writing to the session's history: the
 * client long-polls the current workflow run's history (`GetWorkflowExecutionHistory` with
 * `waitNewEvent`), and each time a workflow task completes it reads the new events with the
 * `feed` query. A query answers from the state of completed workflow tasks only, and the events a
 * worker rebuilds by replay after a crash are the same, at the same offsets, so nothing is missed
 * or doubled. At a continue-as-new it follows the new run, whose window starts with the newest
 * events the old run carried; events a run no longer holds are read from the closed runs of the
 * chain, and if none holds them any more the iterator throws a {@link FeedGapError}.
 *
 * With a `live` channel the events arrive through it as their workflow tasks complete, and text as
 * the model writes it (`text_delta` with `live: true`); the durable feed is read only to catch up:
 * at the start, after the channel lost something, and while the channel is down (as above). The
 * same events, once and in order.
 */
export async function* followSessionFeed(
  client: WorkflowClient,
  sessionId: string,
  { from = 0, signal, live }: FollowSessionFeedOptions = {},
): AsyncGenerator<FeedEvent, void, undefined> {
  if (!Number.isSafeInteger(from) || from < 0) throw new RangeError(`from must be a non-negative integer, got ${from}`);
  if (live !== undefined)
    yield* followLiveSessionFeed(client, sessionId, { from, live, ...(signal ? { signal } : {}) });
  else yield* pollSessionFeed(client, sessionId, { from, ...(signal ? { signal } : {}) });
}
