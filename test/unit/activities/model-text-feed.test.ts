import type { Client } from '@temporalio/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createModelTextFeed } from '../../../activities/model-text-feed';
import type { ModelTextInput } from '../../../src/session';

/** What the feed signals, through a client that records it (and fails the sends it is told to). */
function recordingClient(): { client: Client; sent: ModelTextInput[]; failNext: number } {
  const recorder = { sent: [] as ModelTextInput[], failNext: 0, client: undefined as unknown as Client };
  recorder.client = {
    workflow: {
      getHandle: () => ({
        signal: (_signal: unknown, input: ModelTextInput) => {
          recorder.sent.push(input);
          if (recorder.failNext > 0) {
            recorder.failNext -= 1;
            return Promise.reject(new Error('unavailable'));
          }
          return Promise.resolve();
        },
      }),
    },
  } as unknown as Client;
  return recorder;
}

const quiet = { warn: () => undefined };

describe('the feed of streamed model text', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends the text written in each interval as one signal, numbered, and nothing once the call settled', async () => {
    const recorder = recordingClient();
    const stream = createModelTextFeed({ intervalMs: 500 }).open(
      { sessionId: 's', turn: 3, attempt: 1 },
      { client: recorder.client, log: quiet },
    );
    stream.push('Hel');
    stream.push('lo ');
    await vi.advanceTimersByTimeAsync(499);
    expect(recorder.sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    stream.push('wor');
    stream.push('ld');
    await vi.advanceTimersByTimeAsync(500);
    stream.push(' and the rest, which the response carries');
    stream.end();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(recorder.sent).toEqual([
      { turn: 3, attempt: 1, seq: 1, text: 'Hello ' },
      { turn: 3, attempt: 1, seq: 2, text: 'world' },
    ]);
  });

  it('sends nothing for text that arrives whole as the call ends', async () => {
    const recorder = recordingClient();
    const stream = createModelTextFeed().open(
      { sessionId: 's', turn: 0, attempt: 1 },
      { client: recorder.client, log: quiet },
    );
    stream.push('The whole answer at once.');
    stream.end();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(recorder.sent).toEqual([]);
  });

  it('sends a batch whose delivery failed again unchanged, and the text written meanwhile after it', async () => {
    const recorder = recordingClient();
    recorder.failNext = 1;
    const stream = createModelTextFeed({ intervalMs: 100 }).open(
      { sessionId: 's', turn: 1, attempt: 2 },
      { client: recorder.client, log: quiet },
    );
    stream.push('one ');
    await vi.advanceTimersByTimeAsync(100);
    stream.push('two');
    await vi.advanceTimersByTimeAsync(100);
    await vi.advanceTimersByTimeAsync(100);
    stream.end();
    expect(recorder.sent).toEqual([
      { turn: 1, attempt: 2, seq: 1, text: 'one ' },
      { turn: 1, attempt: 2, seq: 1, text: 'one ' },
      { turn: 1, attempt: 2, seq: 2, text: 'two' },
    ]);
  });
});
