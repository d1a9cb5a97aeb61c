/**
 * The end of a `switch` over every event type (a `SessionEvent`'s or a `FeedEvent`'s): `event` is
 * `never` there, so an event type the switch does not handle is a type error. Returns `undefined`:
 * at run time an event of a newer toolrail (a feed an older client reads) is left alone.
 */
export function unhandledEvent(_event: never): undefined {
  return undefined;
}
