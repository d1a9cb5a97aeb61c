import type { SessionStatus } from './session-status';

/** A call of an activity tool that waits for a worker to take its activity. Plain data. */
export interface WorkerWait {
  readonly callId: string;
  readonly tool: string;
  /** The task queue the activity is scheduled on. */
  readonly taskQueue: string;
  readonly activityType: string;
  /** Why: no worker took it within the tool's `waitForWorkerMs`, or a worker lacks the activity. */
  readonly why: string;
  /** When the wait began (epoch milliseconds, workflow time). */
  readonly since: number;
}

/** The session events about activity tools that wait for a worker (part of `SessionEvent`). */
export type WorkerWaitEvent =
  /** A call's activity was not taken by any worker, or a worker lacks it: it is scheduled again. */
  | ({ type: 'worker_waiting' } & WorkerWait)
  /** The call's activity ran (or the call ended otherwise, e.g. interrupted): its wait is over. */
  | { type: 'worker_back'; callId: string };

/** The calls that wait for a worker now, and the status the first one interrupted. Plain data. */
export interface WorkerWaitState {
  readonly waits: readonly WorkerWait[];
  readonly statusBefore: SessionStatus;
}

/** No call waits for a worker. */
export const noWorkerWaits: WorkerWaitState = { waits: [], statusBefore: 'idle' };

/**
 * The waits and the status after a worker-wait event: a call waiting makes the status
 * `waiting_for_worker` (over what it was); the last wait that ends brings that status back, unless
 * something else set the status since.
 */
export function foldWorkerWaitEvent(
  workers: WorkerWaitState,
  status: SessionStatus,
  event: WorkerWaitEvent,
): { workers: WorkerWaitState; status: SessionStatus } {
  const waits = workers.waits.filter((wait) => wait.callId !== event.callId);
  if (event.type === 'worker_back') {
    const ended = waits.length < workers.waits.length;
    const resumed = ended && waits.length === 0 && status === 'waiting_for_worker' ? workers.statusBefore : status;
    return { workers: { ...workers, waits }, status: resumed };
  }
  const { type: _type, ...wait } = event;
  const statusBefore = workers.waits.length === 0 ? status : workers.statusBefore;
  return { workers: { waits: [...waits, wait], statusBefore }, status: 'waiting_for_worker' };
}
