import type { Sinks } from '@temporalio/workflow';
import type { FeedEvent } from './feed-events';

/** Calls the session's workflow cancelled in one workflow task: tools by call id, and the model call. */
export interface CancelledCalls {
  callIds: string[];
  /** The model call in flight was cancelled too. */
  model: boolean;
}

/**
 * What the session workflow tells its worker as it goes, outside its history (a Temporal sink: not
 * called on replay, and called for a workflow task that may still fail): each feed event it
 * appended, and the calls it cancelled. The worker publishes them on its live channel once the
 * workflow task's completion is in the history; without a channel it ignores them. `createWorker`
 * registers them.
 */
export interface LiveSinks extends Sinks {
  toolrailLive: {
    feedEvent(event: FeedEvent): void;
    callsCancelled(cancelled: CancelledCalls): void;
  };
}
