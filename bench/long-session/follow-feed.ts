import type { SessionHandle } from '../../src/client/session-handle';

/** What a subscriber that followed a whole session saw. */
export interface FollowedFeed {
  events: number;
  /** Whether it saw offsets 0, 1, 2, … with none missing or doubled. */
  inOrderOnce: boolean;
  continuedAsNew: number;
}

/** Follows `session`'s live feed from its first event to its end, checking every offset comes once, in order. */
export async function followWholeFeed(session: SessionHandle): Promise<FollowedFeed> {
  let events = 0;
  let inOrderOnce = true;
  let continuedAsNew = 0;
  for await (const event of session.events()) {
    if (event.offset !== events) inOrderOnce = false;
    if (event.type === 'continued_as_new') continuedAsNew += 1;
    events += 1;
  }
  return { events, inOrderOnce, continuedAsNew };
}
