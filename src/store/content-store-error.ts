/** Why a content store refused or failed. */
export type ContentStoreErrorCode = 'CONTENT_MISSING' | 'CONTENT_CORRUPT' | 'STORE_UNAVAILABLE' | 'INVALID_STORE';

/**
 * A content store's failure, naming the session and the key it concerns and what to do. Missing or
 * corrupt content fails the activity that needed it (the workflow sees an activity failure, never
 * a wedged task).
 */
export class ContentStoreError extends Error {
  readonly code: ContentStoreErrorCode;
  readonly sessionId: string | undefined;
  readonly key: string | undefined;

  constructor({
    code,
    message,
    sessionId,
    key,
    cause,
  }: {
    code: ContentStoreErrorCode;
    message: string;
    sessionId?: string;
    key?: string;
    cause?: unknown;
  }) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'ContentStoreError';
    this.code = code;
    this.sessionId = sessionId;
    this.key = key;
  }
}
