/**
 * The encoding of the payload toolrail's External Storage hands the worker in place of a claim it
 * can never read: its data is an {@link UnreadableClaim} as JSON. No payload converter decodes it,
 * so toolrail's (the workflow bundle's) turns it into an undecodable-payload marker that says why.
 */
export const unreadableClaimEncoding = 'binary/toolrail-unreadable-claim';

/**
 * Why a claim can never be read: its content is not in the store (`CONTENT_MISSING`) or not what
 * was written (`CONTENT_CORRUPT`), the claim is not one toolrail's driver wrote (`CLAIM_MALFORMED`),
 * or it names a driver toolrail's External Storage does not have (`DRIVER_UNKNOWN`).
 */
export type UnreadableClaimCode = 'CONTENT_MISSING' | 'CONTENT_CORRUPT' | 'CLAIM_MALFORMED' | 'DRIVER_UNKNOWN';

/** What a session learns of a claim it can never read: the same on every read (and so on replay). */
export interface UnreadableClaim {
  code: UnreadableClaimCode;
  /** Why, naming the claim (its session and key, or its driver); never a store's address. */
  message: string;
}

/**
 * The type of the non-retryable failure toolrail's workflows raise for an activity result they can
 * never read (a claim of it that can never be read, or a payload no converter decodes).
 */
export const unreadableResultFailureType = 'UNREADABLE_RESULT';
