import { ApplicationFailure, Context } from '@temporalio/activity';
import { ContentStoreError, readStoreIdentity } from '../src/store';
import type { ContentStore } from '../src/store';
import type { SessionStoreInput } from './types';
import { describeStore, isStoreFailureType } from '../src/session';
import type { StoreFailureDetails } from '../src/session';

/** How soon a refused activity is tried again (by whichever worker takes it), in milliseconds. */
const mismatchRetryDelayMs = 200;

/**
 * The failure the session workflow sees for a content-store error: an `ApplicationFailure` whose
 * type is the error's code (`STORE_UNAVAILABLE`, `STORE_MISMATCH`, `CONTENT_MISSING`,
 * `CONTENT_CORRUPT`, `CONTENT_UNDECODABLE`), whose message is the store's (naming the store, never
 * a password, the session
 * and the key) and whose details say which store and key. The workflow waits on them, so they are
 * not retried here; except a mismatch in a regular activity, which Temporal retries so that a
 * worker with the session's store takes it.
 */
export function storeFailure(error: ContentStoreError): ApplicationFailure {
  const details: StoreFailureDetails = {
    ...(error.store === undefined ? {} : { store: error.store }),
    ...(error.key === undefined ? {} : { key: error.key }),
  };
  const type = isStoreFailureType(error.code) ? error.code : 'STORE_UNAVAILABLE';
  const retryElsewhere = type === 'STORE_MISMATCH' && !Context.current().info.isLocal;
  return ApplicationFailure.create({
    type,
    message: error.message,
    details: [details],
    nonRetryable: !retryElsewhere,
    // Another worker (with the session's store) may take the retry at once: no backoff.
    ...(retryElsewhere ? { nextRetryDelay: mismatchRetryDelayMs } : {}),
  });
}

/** Runs `work`; a `ContentStoreError` it throws becomes the {@link storeFailure} the workflow waits on. */
export async function reportingStoreFailures<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ContentStoreError && error.code !== 'INVALID_STORE') throw storeFailure(error);
    throw error;
  }
}

/**
 * Checks that this worker's store is the session's (`storeId`, recorded when the session started;
 * absent before): rejects with a `STORE_MISMATCH` naming both stores otherwise. The session's store
 * comes by its id alone: the workflow names it in full when it shows the wait.
 */
export async function checkSessionStore(
  store: ContentStore,
  storeId: SessionStoreInput['storeId'],
  sessionId: string,
): Promise<void> {
  if (storeId === undefined) return;
  const mine = await readStoreIdentity(store);
  if (mine.id !== storeId)
    throw ContentStoreError.mismatch(describeStore({ id: storeId }), describeStore(mine), sessionId);
}

/** Longest pause between two tries of a store write that keeps trying, in milliseconds. */
const maxRetryDelayMs = 5_000;

/**
 * Runs the store operation `work` until it succeeds or `deadline` (epoch milliseconds) passes:
 * an unavailable store is tried again (pausing 200 ms, doubling to 5 s); any other error ends it.
 * Resolves to the value, or to the last `ContentStoreError`. Heartbeats between tries.
 */
export async function keepTrying<T>(
  work: () => Promise<T>,
  deadline: number,
): Promise<{ value: T } | { error: ContentStoreError }> {
  const context = Context.current();
  for (let delay = 200; ; delay = Math.min(delay * 2, maxRetryDelayMs)) {
    try {
      return { value: await work() };
    } catch (error) {
      if (!(error instanceof ContentStoreError)) throw error;
      if (error.code !== 'STORE_UNAVAILABLE' || Date.now() + delay >= deadline) return { error };
      if (!context.info.isLocal) context.heartbeat();
      await context.sleep(delay);
    }
  }
}
