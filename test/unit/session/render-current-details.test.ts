import { describe, expect, it } from 'vitest';
import { renderCurrentDetails } from '../../../src/session/render-current-details';

const view = {
  counters: { turns: 3, runs: 1, toolCalls: 2, blockedCalls: 0, continuedAsNew: 0 },
  pendingApprovals: [],
  lastRunEnd: null,
  runInProgress: true,
  narrowed: () => ({ visible: ['search'], hidden: [] }),
};

describe('the current details of a session', () => {
  it('say why the session waits for its content store, and that it goes on once the store is back', () => {
    const details = renderCurrentDetails({
      ...view,
      status: 'waiting_for_store',
      storeProblem: {
        code: 'STORE_UNAVAILABLE',
        message: 'Content store postgres:toolrail@db:5432/toolrail is unavailable (connect ECONNREFUSED).',
        store: 'postgres:toolrail@db:5432/toolrail',
        since: 0,
        retries: 0,
      },
    });
    expect(details).toContain('status `waiting_for_store`');
    expect(details).toContain('**Waiting for the content store** (`STORE_UNAVAILABLE`)');
    expect(details).toContain('connect ECONNREFUSED');
    expect(details).toContain('messages sent meanwhile are kept');
  });

  it('say nothing of the store while it works', () => {
    expect(renderCurrentDetails({ ...view, status: 'thinking' })).not.toContain('content store');
  });
});
