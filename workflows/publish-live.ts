import { proxySinks, workflowInfo } from '@temporalio/workflow';
import type { WorkflowInterceptorsFactory } from '@temporalio/workflow';
import type { CancelledCalls, FeedEvent, LiveItem, LiveSinks } from '../src/session';

const { toolrailLive } = proxySinks<LiveSinks>();

/** What this workflow task has for the worker's live channel so far, in order. */
let taskItems: LiveItem[] = [];

/**
 * Whether this bundle hands items over: its interceptors (below) are in the bundles of workers that
 * have a live channel only, and set it as each workflow starts.
 */
let handingOver = false;

/**
 * Adds a feed event this workflow task appended to what the task hands to the worker's live channel
 * as it ends (which publishes it once the task is durable). Not on replay: those events were handed
 * over when they happened.
 */
export function publishFeedEvent(event: FeedEvent): void {
  if (handingOver && !workflowInfo().unsafe.isReplaying) taskItems.push({ event });
}

/**
 * Adds the running calls this workflow task cancelled to what it hands to the worker's live channel
 * as it ends, so their workers abort them at once.
 */
export function publishCancelledCalls(cancelled: CancelledCalls): void {
  if (handingOver && !workflowInfo().unsafe.isReplaying && (cancelled.model || cancelled.callIds.length > 0))
    taskItems.push({ cancelled });
}

/**
 * Workflow interceptors (in the bundles of workers with a live channel) that hand a task's items to
 * the live channel in one sink call as the task ends: the SDK copies the workflow's info into each
 * sink call and carries each across threads, so a call per feed event cost the worker several a turn.
 */
export const interceptors: WorkflowInterceptorsFactory = () => {
  handingOver = true;
  return {
    internals: [
      {
        concludeActivation(input, next) {
          if (taskItems.length > 0) {
            toolrailLive.taskEnded(taskItems);
            taskItems = [];
          }
          return next(input);
        },
      },
    ],
  };
};
