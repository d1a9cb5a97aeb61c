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

  it('says why the model stopped and what it used, and finishes a run cut off by the output limit as length', async () => {
    const chunker = uiMessageChunker({ sessionId: 's' });
    const usage = { inputTokens: 12, outputTokens: 34 };
    const totals = { modelCalls: 1, inputTokens: 12, outputTokens: 34, cachedInputTokens: 0, reasoningTokens: 0 };
    const chunks = [];
    for (const event of feed(
      { type: 'run_started', message: { key: 'k', bytes: 2, preview: 'hi' } },
      { type: 'turn_started' },
      {
        type: 'model_responded',
        text: 'Cut',
        calls: [],
        message: { key: 'a', bytes: 3, preview: 'Cut' },
        finishReason: 'length',
        usage,
      },
      { type: 'run_ended', reason: 'max_tokens', usage: totals },
    ))
      chunks.push(...(await chunker(event)));
    expect(chunks.find((chunk) => chunk.type === 'data-model')).toEqual({
      type: 'data-model',
      id: 'model-0',
      data: { turn: 0, finishReason: 'length', rawFinishReason: undefined, usage },
    });
    expect(chunks.find((chunk) => chunk.type === 'data-run-ended')).toMatchObject({ data: { usage: totals } });
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'length' });
  });
});
