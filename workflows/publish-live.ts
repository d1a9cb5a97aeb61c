import { proxySinks, workflowInfo } from '@temporalio/workflow';
import type { CancelledCalls, FeedEvent, LiveSinks } from '../src/session';

const { toolrailLive } = proxySinks<LiveSinks>();

/**
 * Hands a feed event this workflow task appended to the worker's live channel (which publishes it
 * once the task is durable). Not on replay: those events were handed over when they happened.
 */
export function publishFeedEvent(event: FeedEvent): void {
  if (!workflowInfo().unsafe.isReplaying) toolrailLive.feedEvent(event);
}

/**
 * Tells the worker's live channel which running calls this workflow task cancelled, so their
 * workers abort them at once.
 */
export function publishCancelledCalls(cancelled: CancelledCalls): void {
  if (!workflowInfo().unsafe.isReplaying && (cancelled.model || cancelled.callIds.length > 0))
    toolrailLive.callsCancelled(cancelled);
}
