import { describe, expect, it } from 'vitest';
import { foldWorkerWaitEvent, noWorkerWaits } from '../../../src/session';
import type { WorkerWaitEvent } from '../../../src/session';

function waiting(callId: string): WorkerWaitEvent {
  return {
    type: 'worker_waiting',
    callId,
    tool: 'refund_card',
    taskQueue: 'refunds',
    activityType: 'refundCard',
    why: 'no worker took it',
    since: 1_000,
  };
}

describe('the waits of activity tools for a worker', () => {
  it('shows waiting_for_worker while any call waits, and brings back the status the first wait interrupted', () => {
    let state = foldWorkerWaitEvent(noWorkerWaits, 'running_tools', waiting('a'));
    expect(state.status).toBe('waiting_for_worker');
    state = foldWorkerWaitEvent(state.workers, state.status, waiting('b'));
    expect(state.workers.waits.map((wait) => wait.callId)).toEqual(['a', 'b']);
    state = foldWorkerWaitEvent(state.workers, state.status, { type: 'worker_back', callId: 'a' });
    expect(state.status).toBe('waiting_for_worker');
    state = foldWorkerWaitEvent(state.workers, state.status, { type: 'worker_back', callId: 'b' });
    expect(state).toEqual({ workers: { waits: [], statusBefore: 'running_tools' }, status: 'running_tools' });
  });

  it('leaves a status something else set since the wait began, and ignores the end of a wait it does not know', () => {
    const begun = foldWorkerWaitEvent(noWorkerWaits, 'running_tools', waiting('a'));
    const ended = foldWorkerWaitEvent(begun.workers, 'awaiting_approval', { type: 'worker_back', callId: 'a' });
    expect(ended.status).toBe('awaiting_approval');
    const unknown = foldWorkerWaitEvent(noWorkerWaits, 'thinking', { type: 'worker_back', callId: 'z' });
    expect(unknown.status).toBe('thinking');
  });
});
