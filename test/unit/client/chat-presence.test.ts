import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChatPresence } from '../../../src/client/chat-presence';

describe("a chat's presence", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('stops the run once the window passes without the client coming back', async () => {
    const stopped: string[] = [];
    const presence = new ChatPresence({ windowMs: 1_000, stop: (id) => Promise.resolve(void stopped.push(id)) });
    presence.enter('chat-1')(true);
    await vi.advanceTimersByTimeAsync(999);
    expect(stopped).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(stopped).toEqual(['chat-1']);
  });

  it('does not stop the run when a stream of the chat opens within the window, or another is still open', async () => {
    const stopped: string[] = [];
    const presence = new ChatPresence({ windowMs: 1_000, stop: (id) => Promise.resolve(void stopped.push(id)) });
    presence.enter('chat-1')(true);
    await vi.advanceTimersByTimeAsync(500);
    const resumed = presence.enter('chat-1');
    const other = presence.enter('chat-1');
    other(true);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(stopped).toEqual([]);
    resumed(false);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(stopped).toEqual([]);
  });

  it('stops at once when the chat sends a new message meanwhile, and only once', async () => {
    const stopped: string[] = [];
    const presence = new ChatPresence({ windowMs: 1_000, stop: (id) => Promise.resolve(void stopped.push(id)) });
    const kept: Promise<unknown>[] = [];
    const waiting = new ChatPresence({
      windowMs: Number.POSITIVE_INFINITY,
      stop: (id) => Promise.resolve(void stopped.push(`never ${id}`)),
      waitUntil: (promise) => kept.push(promise),
    });
    presence.enter('chat-1')(true);
    await presence.settle('chat-1');
    expect(stopped).toEqual(['chat-1']);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(stopped).toEqual(['chat-1']);
    waiting.enter('chat-2')(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect([stopped, kept]).toEqual([['chat-1'], []]);
  });
});
