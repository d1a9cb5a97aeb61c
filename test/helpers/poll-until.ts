import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Reads `read()` until `done(value)` holds and returns that value; fails after `timeoutMs` with the
 * last value read. For waiting on a session's state through queries, never for timing assertions.
 */
export async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  { timeoutMs = 30_000, intervalMs = 50 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await sleep(intervalMs);
  }
}
