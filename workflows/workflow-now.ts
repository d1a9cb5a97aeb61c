/**
 * The workflow's current time, in milliseconds since the epoch: the one place workflow code reads
 * the clock. Inside Temporal's workflow sandbox `Date` is deterministic (it is the start time of the
 * current workflow task, the same again on replay), so this is safe there and only there.
 */
export function workflowNow(): number {
  // eslint-disable-next-line no-restricted-properties -- Temporal's sandbox makes Date deterministic (see above).
  return Date.now();
}
