import { describe, expect, it } from 'vitest';
import { uiMessageChunker } from '../../../src/client';
import type { FeedEvent, FeedEventBody } from '../../../src/session';

function feed(...bodies: FeedEventBody[]): FeedEvent[] {
  return bodies.map((body, offset) => ({ offset, at: 0, run: 1, turn: 0, ...body }));
}

describe('the UI message stream of a feed', () => {
  it('shows a wait for the content store as one data part, waiting with its problem, then back', async () => {
    const chunker = uiMessageChunker({ sessionId: 's' });
    const problem = { code: 'STORE_UNAVAILABLE' as const, message: 'connect ECONNREFUSED', since: 5, retries: 0 };
    const chunks = [];
    for (const event of feed(
      { type: 'run_started', message: { key: 'k', bytes: 2, preview: 'hi' } },
      { type: 'store_waiting', wait: 1, problem },
      { type: 'store_waiting', wait: 1, problem: { ...problem, retries: 1 } },
      { type: 'store_back', wait: 1 },
      { type: 'store_waiting', wait: 2, problem },
    ))
      chunks.push(...(await chunker(event)));
    expect(chunks.filter((chunk) => chunk.type === 'data-store')).toEqual([
      { type: 'data-store', id: 'store-1', data: { state: 'waiting', ...problem } },
      { type: 'data-store', id: 'store-1', data: { state: 'waiting', ...problem, retries: 1 } },
      { type: 'data-store', id: 'store-1', data: { state: 'back' } },
      { type: 'data-store', id: 'store-4', data: { state: 'waiting', ...problem } },
    ]);
  });
});
