import type { StoreIdentity } from '../store';
import type { SessionStatus } from './session-status';

/**
 * The failure types of content-store problems, as the activities report them (`ApplicationFailure`
 * types) and the session shows them: the store cannot be reached or written (`STORE_UNAVAILABLE`),
 * this worker has another store than the session (`STORE_MISMATCH`), content the session needs is
 * gone (`CONTENT_MISSING`), changed (`CONTENT_CORRUPT`) or cannot be decoded by this worker's payload
 * codecs (`CONTENT_UNDECODABLE`: written without codecs, with others or with another key). The
 * session waits on each of them.
 */
export const StoreFailureType = {
  STORE_UNAVAILABLE: 'STORE_UNAVAILABLE',
  STORE_MISMATCH: 'STORE_MISMATCH',
  CONTENT_MISSING: 'CONTENT_MISSING',
  CONTENT_CORRUPT: 'CONTENT_CORRUPT',
  CONTENT_UNDECODABLE: 'CONTENT_UNDECODABLE',
} as const;

/** One of the {@link StoreFailureType} values. */
export type StoreFailureType = (typeof StoreFailureType)[keyof typeof StoreFailureType];

/** Whether `type` (an `ApplicationFailure`'s) is a content-store problem the session waits on. */
export function isStoreFailureType(type: string | undefined | null): type is StoreFailureType {
  return type != null && Object.hasOwn(StoreFailureType, type);
}

/**
 * A store as a problem's message names it: by its description and id, or by its id alone (the
 * activities get the session's store so; the session then names it in full, see
 * {@link namingSessionStore}).
 */
export function describeStore({ id, description }: { id: string; description?: string | undefined }): string {
  return description === undefined ? `the store with id ${id}` : `${description} (store id ${id})`;
}

/** `message` with the session's store named in full where a worker named it by its id alone. */
export function namingSessionStore(message: string, identity: StoreIdentity): string {
  return message.replace(describeStore({ id: identity.id }), describeStore(identity));
}

/** What a store failure carries besides its message (its `details[0]`). Plain JSON. */
export interface StoreFailureDetails {
  /** The store that failed (its description: never a password). */
  store?: string;
  /** The missing or corrupt key (or `record "<name>"`). */
  key?: string;
}

/**
 * Why a session waits for its content store: in the `status` and `ruleState` queries, the current
 * details, and (as status `waiting_for_store`) the `ToolrailStatus` search attribute.
 */
export interface StoreProblem {
  code: StoreFailureType;
  /** The store's error, with what to do about it. */
  message: string;
  /** The store that failed, when known. */
  store?: string;
  /** The missing, corrupt or undecodable key, for the `CONTENT_*` codes. */
  key?: string;
  /** When the wait began (epoch milliseconds, workflow time). */
  since: number;
  /** How many times the store was tried again since, and failed. */
  retries: number;
}

/** The session events about its content store (part of `SessionEvent`). */
export type StoreEvent =
  /** The session recorded the identity of its content store (when it started): workers with another store refuse it. */
  | { type: 'store_identified'; store: StoreIdentity }
  /**
   * A content-store operation (`wait`, numbered in this workflow run) waits for the store, and
   * why; again with each newer problem (`problem.retries` counts them). The session shows
   * `waiting_for_store` while any operation waits.
   */
  | { type: 'store_waiting'; wait: number; problem: StoreProblem }
  /** The content store is back for operation `wait` (it ran again and succeeded, or gave up on another error). */
  | { type: 'store_back'; wait: number };

/** What a session knows of its content store. Plain data, part of the session's state. */
export interface SessionStoreState {
  /**
   * The store's identity, recorded when the session started (carried by continue-as-new); absent
   * for sessions started before toolrail recorded it.
   */
  readonly identity: StoreIdentity | undefined;
  /** The operations that wait for the store now, by number, the newest problem last. */
  readonly waits: ReadonlyMap<number, StoreProblem>;
  /** Waits begun in this workflow run: the next one's number. */
  readonly waitsBegun: number;
  /** The status the first wait interrupted, restored when the last one ends. */
  readonly statusBefore: SessionStatus;
}

/** The store state of a workflow run that starts knowing the store `identity` (or not). */
export function initialStoreState(identity: StoreIdentity | undefined): SessionStoreState {
  return { identity, waits: new Map(), waitsBegun: 0, statusBefore: 'idle' };
}

/**
 * The session's store state and status after a store event: the identity recorded; an operation
 * waiting (the status becomes `waiting_for_store`, over what it was); an operation done waiting
 * (the status it interrupted comes back with the last one, unless something else set it since).
 */
export function foldStoreEvent(
  store: SessionStoreState,
  status: SessionStatus,
  event: StoreEvent,
): { store: SessionStoreState; status: SessionStatus } {
  if (event.type === 'store_identified') return { store: { ...store, identity: event.store }, status };
  const waits = new Map(store.waits);
  const known = waits.delete(event.wait);
  if (event.type === 'store_back') {
    const resumed = waits.size === 0 && status === 'waiting_for_store' ? store.statusBefore : status;
    return { store: { ...store, waits }, status: resumed };
  }
  waits.set(event.wait, event.problem);
  const statusBefore = store.waits.size === 0 ? status : store.statusBefore;
  const waitsBegun = known ? store.waitsBegun : store.waitsBegun + 1;
  return { store: { ...store, waits, waitsBegun, statusBefore }, status: 'waiting_for_store' };
}

export type { StoreIdentity };
