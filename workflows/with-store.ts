import { ActivityFailure, ApplicationFailure, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import { isStoreFailureType, namingSessionStore } from '../src/session';
import { inputArguments } from '../src/dispatch';
import type { ConversationLog, MessageRef, SessionEvent, StoreFailureDetails, StoreProblem } from '../src/session';
import type {
  BeganSession,
  BeginSessionInput,
  SealLogInput,
  SessionActivities,
  SessionStoreInput,
  StoreMessagesInput,
} from '../activities';
import type { SessionState } from './session-state';
import { workflowNow } from './workflow-now';

/** Longest pause before trying an operation again after it failed once the store seemed back, in milliseconds. */
const maxRetryPauseMs = 60_000;
/** How long one `awaitStore` check runs before it reports the newest error (and is asked again), in milliseconds. */
const checkRoundMs = 300_000;
const contentKey = /^[0-9a-f]{64}$/;

/** What waiting needs of the session (a `Session` is one): its state, and where its events go. */
export interface StoreWaiter {
  readonly state: SessionState;
  emit(event: SessionEvent): void;
}

/** A store failure the session waits on, as the activity reported it. */
type StoreFailure = Omit<StoreProblem, 'since' | 'retries'>;

/**
 * Runs a content-store operation of the session and waits for the store as long as it takes when it
 * fails: a store that is unavailable or full, content that is missing or corrupt (until it is
 * restored) or that this worker's payload codecs cannot decode (until a worker with the right ones
 * reads it), or a worker whose store is not the session's. While it waits the session shows
 * `waiting_for_store` with the store's error (`store_waiting` events: the `status` and `ruleState`
 * queries, current details, `ToolrailStatus`), checks every `limits.storeRetryIntervalMs` with the
 * `awaitStore` activity (which a worker with the session's store answers), and once the store is
 * back runs the operation again: the session goes on where it was. Other failures, and
 * cancellation (an interrupt), go to the caller. `elsewhere` runs the operation as a regular
 * activity: a local one that found this worker's store is not the session's runs there, so that a
 * worker with the right store takes it.
 */
export async function withStore<T>(
  session: StoreWaiter,
  operation: () => Promise<T>,
  elsewhere?: () => Promise<T>,
): Promise<T> {
  let wait: { number: number; problem: StoreProblem } | undefined;
  let failures = 0;
  let onAnotherWorker = false;
  try {
    for (;;) {
      try {
        return await (onAnotherWorker && elsewhere !== undefined ? elsewhere() : operation());
      } catch (error) {
        const failure = storeFailureOf(error);
        if (failure === undefined) throw error;
        wait = showWait(session, wait, failure);
        if (failure.code === 'STORE_MISMATCH' && elsewhere !== undefined && !onAnotherWorker) {
          onAnotherWorker = true;
          continue;
        }
        // Another worker's refusal is no sign of an overloaded store: no growing pause for it.
        if (failure.code !== 'STORE_MISMATCH') failures += 1;
        wait = await untilStoreIsBack(session, wait, failure, failures);
      }
    }
  } finally {
    if (wait !== undefined) session.emit({ type: 'store_back', wait: wait.number });
  }
}

/**
 * Waits until `awaitStore` says the store is back: at once after the first failure, then after a
 * pause that doubles from the check interval to 60 s (the store seemed back, yet the operation
 * failed again). A check that ran its round without the store coming back shows its newest error.
 */
async function untilStoreIsBack(
  session: StoreWaiter,
  wait: { number: number; problem: StoreProblem },
  failure: StoreFailure,
  failures: number,
): Promise<{ number: number; problem: StoreProblem }> {
  const { state } = session;
  const intervalMs = state.limits.storeRetryIntervalMs;
  // Missing, corrupt or undecodable content is waited for until it reads back whole; otherwise
  // until the store takes writes.
  const restoring =
    failure.code === 'CONTENT_MISSING' || failure.code === 'CONTENT_CORRUPT' || failure.code === 'CONTENT_UNDECODABLE';
  const key = restoring && failure.key !== undefined && contentKey.test(failure.key) ? failure.key : undefined;
  let firstCheckAfterMs = failures <= 1 ? 0 : Math.min(intervalMs * 2 ** (failures - 1), maxRetryPauseMs);
  for (;;) {
    try {
      const round = { firstCheckAfterMs, intervalMs, roundMs: checkRoundMs };
      await checks.awaitStore({ ...sessionStoreInput(state), ...round, ...(key ? { key } : {}) });
      return wait;
    } catch (error) {
      const newest = storeFailureOf(error);
      if (newest === undefined) throw error;
      wait = showWait(session, wait, newest);
      firstCheckAfterMs = 0;
    }
  }
}

/**
 * Shows why the operation waits: a new wait, or a newer problem of the same one (it keeps its start
 * and counts a retry).
 */
function showWait(
  session: StoreWaiter,
  wait: { number: number; problem: StoreProblem } | undefined,
  failure: StoreFailure,
): { number: number; problem: StoreProblem } {
  const { identity, waitsBegun } = session.state.store;
  const number = wait?.number ?? waitsBegun;
  // A worker with another store knows the session's by its id alone (`sessionStoreInput`): the wait names it in full.
  const named =
    failure.code === 'STORE_MISMATCH' && identity !== undefined
      ? { ...failure, message: namingSessionStore(failure.message, identity) }
      : failure;
  const problem: StoreProblem = wait
    ? { ...named, since: wait.problem.since, retries: wait.problem.retries + 1 }
    : { ...named, since: workflowNow(), retries: 0 };
  session.emit({ type: 'store_waiting', wait: number, problem });
  return { number, problem };
}

/** The store failure an activity reported (directly or as the cause of its `ActivityFailure`), or `undefined`. */
function storeFailureOf(error: unknown): StoreFailure | undefined {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (!(cause instanceof ApplicationFailure) || !isStoreFailureType(cause.type)) return undefined;
  const details = (cause.details?.[0] ?? {}) as StoreFailureDetails;
  return {
    code: cause.type,
    message: cause.message,
    ...(typeof details.store === 'string' ? { store: details.store } : {}),
    ...(typeof details.key === 'string' ? { key: details.key } : {}),
  };
}

/**
 * What an activity that touches the content store is given: the session, and the id of its store
 * when it recorded one (what a worker compares with its own store's); the description stays in the
 * session's state, which words a mismatch.
 */
export function sessionStoreInput(state: SessionState): SessionStoreInput {
  const { identity } = state.store;
  return { sessionId: state.sessionId, ...(identity === undefined ? {} : { storeId: identity.id }) };
}

/**
 * A new session's first look at its worker (`beginSession`: its store, first message, catalog),
 * waiting for the store while it fails.
 */
export function beginSessionHere(session: StoreWaiter, input: BeginSessionInput): Promise<BeganSession> {
  return withStore(session, () => content.beginSession(...inputArguments(input)));
}

/**
 * The workflow's content-store writes: local activities, whose inputs never enter the history
 * (only the references they return), their inputs in parts when big (`inputArguments`: so that no
 * External Storage write comes before theirs, and a store that is down fails the activity, which
 * the session waits on, not the workflow task); for when this worker's store is not the session's,
 * the same writes as regular activities, which Temporal retries until a worker with the session's
 * store takes them (their inputs then enter the history, a big one as an External Storage claim).
 */
export function contentWrites(session: StoreWaiter): {
  storeMessages(input: StoreMessagesInput): Promise<MessageRef[]>;
  sealLog(input: SealLogInput): Promise<ConversationLog>;
} {
  return {
    storeMessages: (input) =>
      withStore(
        session,
        () => content.storeMessages(...inputArguments(input)),
        () => contentElsewhere.storeMessages(input),
      ),
    sealLog: (input) =>
      withStore(
        session,
        () => content.sealLog(...inputArguments(input)),
        () => contentElsewhere.sealLog(input),
      ),
  };
}

const content = proxyLocalActivities<SessionActivities>({
  startToCloseTimeout: 60_000,
  retry: { maximumAttempts: 10, initialInterval: 500, backoffCoefficient: 2, maximumInterval: 10_000 },
});

const contentElsewhere = proxyActivities<SessionActivities>({
  startToCloseTimeout: 60_000,
  retry: { initialInterval: 1_000, backoffCoefficient: 2, maximumInterval: 10_000 },
});

/** Whether the store is back: a regular activity, so a worker with the session's store answers it (it heartbeats). */
const checks = proxyActivities<SessionActivities>({
  startToCloseTimeout: checkRoundMs + 60_000,
  heartbeatTimeout: 30_000,
  retry: { initialInterval: 1_000, backoffCoefficient: 2, maximumInterval: 10_000 },
});
