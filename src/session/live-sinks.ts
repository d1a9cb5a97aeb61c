import type { Sinks } from '@temporalio/workflow';
import type { FeedEvent } from './feed-events';

/** Calls the session's workflow cancelled in one workflow task: tools by call id, and the model call. */
export interface CancelledCalls {
  callIds: string[];
  /** The model call in flight was cancelled too. */
  model: boolean;
}

/** One thing a workflow task hands to the live channel: a feed event it appended, or calls it cancelled. */
export type LiveItem = { event: FeedEvent } | { cancelled: CancelledCalls };

/**
 * What the session workflow tells its worker as it goes, outside its history (a Temporal sink: not
 * called on replay, and called for a workflow task that may still fail): once per workflow task,
 * the feed events it appended and the calls it cancelled, in order. The worker publishes them on its
 * live channel once the task's completion is in the history; without a channel it ignores them.
 * The toolrail plugin registers it.
 */
export interface LiveSinks extends Sinks {
  toolrailLive: {
    taskEnded(items: LiveItem[]): void;
  };
}
