import type { FeedEvent } from '../../src/session';

/**
 * An event without its workflow time `at`. Two readers of one feed see the same events at the same
 * offsets, but a replay can set the workflow's clock a few milliseconds apart where a query reached
 * the session while a local activity ran (docs/live-feed.md): compare events without it.
 */
export function withoutTime({ at: _at, ...event }: FeedEvent): Omit<FeedEvent, 'at'> {
  return event;
}
