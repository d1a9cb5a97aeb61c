import { Context } from '@temporalio/activity';
import { ContentStoreError } from '../src/store';
import type { EncodedContent } from '../src/store';
import type { AwaitStoreInput } from './types';
import { checkSessionStore, storeFailure } from './store-failures';

/** Name of the record a store check writes in the session (write-once: later checks write a temporary file only). */
const storeCheckRecord = 'toolrail/store-check';
/** Longest pause between two heartbeats while waiting, in milliseconds. */
const heartbeatEveryMs = 5_000;

/**
 * The `awaitStore` activity: checks every `intervalMs` whether the session's store is back, and
 * resolves when it is: it is this worker's store, it takes a write (a small record in the
 * session), and it holds `key` whole and readable with this worker's payload codecs when one is
 * given. Heartbeats with the newest error; when `roundMs` passed it rejects with that error, so the
 * workflow shows it and asks again. A store that
 * is not this worker's rejects at once (retryable), so another worker takes the check.
 */
export async function awaitStore(content: EncodedContent, input: AwaitStoreInput): Promise<void> {
  const { store } = content;
  const { sessionId, storeId, key, firstCheckAfterMs, intervalMs, roundMs } = input;
  const deadline = Date.now() + roundMs;
  let pause = firstCheckAfterMs;
  for (;;) {
    await pauseWithHeartbeats(pause);
    try {
      await checkSessionStore(store, storeId, sessionId);
      if (key !== undefined) await content.get(sessionId, key);
      else {
        await store.putRecord(sessionId, storeCheckRecord, new TextEncoder().encode('ok'));
        await store.getRecord(sessionId, storeCheckRecord);
      }
      return;
    } catch (error) {
      if (!(error instanceof ContentStoreError)) throw error;
      if (error.code === 'STORE_MISMATCH' || Date.now() + intervalMs >= deadline) throw storeFailure(error);
      Context.current().heartbeat(error.message);
      pause = intervalMs;
    }
  }
}

/** Sleeps `ms`, heartbeating every few seconds so the server knows the check is alive (and can cancel it). */
async function pauseWithHeartbeats(ms: number): Promise<void> {
  const context = Context.current();
  for (let left = ms; left > 0; left -= heartbeatEveryMs) {
    context.heartbeat();
    await context.sleep(Math.min(left, heartbeatEveryMs));
  }
}
