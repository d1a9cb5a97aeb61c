import type { StoreIdentity } from '../store';

/**
 * The failure types of content-store problems, as the activities report them (`ApplicationFailure`
 * types) and the session shows them: the store cannot be reached or written (`STORE_UNAVAILABLE`),
 * this worker has another store than the session (`STORE_MISMATCH`), content the session needs is
 * gone (`CONTENT_MISSING`) or changed (`CONTENT_CORRUPT`). The session waits on each of them.
 */
export const StoreFailureType = {
  STORE_UNAVAILABLE: 'STORE_UNAVAILABLE',
  STORE_MISMATCH: 'STORE_MISMATCH',
  CONTENT_MISSING: 'CONTENT_MISSING',
  CONTENT_CORRUPT: 'CONTENT_CORRUPT',
} as const;

/** One of the {@link StoreFailureType} values. */
export type StoreFailureType = (typeof StoreFailureType)[keyof typeof StoreFailureType];

/** Whether `type` (an `ApplicationFailure`'s) is a content-store problem the session waits on. */
export function isStoreFailureType(type: string | undefined | null): type is StoreFailureType {
  return type != null && Object.hasOwn(StoreFailureType, type);
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
  /** The missing or corrupt key, for `CONTENT_MISSING` and `CONTENT_CORRUPT`. */
  key?: string;
  /** When the wait began (epoch milliseconds, workflow time). */
  since: number;
  /** How many times the store was tried again since, and failed. */
  retries: number;
}

export type { StoreIdentity };
