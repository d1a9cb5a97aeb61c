/** Why a content store operation failed. */
export type ContentStoreErrorCode =
  'CONTENT_MISSING' | 'CONTENT_CORRUPT' | 'CONTENT_UNDECODABLE' | 'STORE_UNAVAILABLE' | 'INVALID_STORE';

/** A content store failure naming the session, the key and the store, with what to do about it. */
export class ContentStoreError extends Error {
  override readonly name = 'ContentStoreError';
  readonly code: ContentStoreErrorCode;
  /** The session involved, when there is one. */
  readonly sessionId: string | undefined;
  /** The content key involved, when there is one. */
  readonly key: string | undefined;

  constructor(
    code: ContentStoreErrorCode,
    message: string,
    details: { sessionId?: string; key?: string; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.sessionId = details.sessionId;
    this.key = details.key;
  }

  /** Content that was never stored or was deleted by retention. */
  static missing(store: string, sessionId: string, key: string): ContentStoreError {
    return new ContentStoreError(
      'CONTENT_MISSING',
      `Content ${key} of session ${JSON.stringify(sessionId)} is not in ${store}: check that every worker uses the same content store, and that retention has not pruned this session.`,
      { sessionId, key },
    );
  }

  /** Content whose bytes no longer hash to their key. */
  static corrupt(store: string, sessionId: string, key: string, actual: string): ContentStoreError {
    return new ContentStoreError(
      'CONTENT_CORRUPT',
      `Content ${key} of session ${JSON.stringify(sessionId)} in ${store} is corrupt (its bytes hash to ${actual}): restore it from a backup or delete the session.`,
      { sessionId, key },
    );
  }

  /**
   * Content the payload codecs configured here cannot turn back into what was written: stored
   * without codecs while codecs are configured, or the other way round, or by other codecs.
   */
  static undecodable(
    store: string,
    sessionId: string,
    key: string,
    reason: string,
    cause?: unknown,
  ): ContentStoreError {
    return new ContentStoreError(
      'CONTENT_UNDECODABLE',
      `Content ${key} of session ${JSON.stringify(sessionId)} in ${store} cannot be read: ${reason}.`,
      { sessionId, key, ...(cause === undefined ? {} : { cause }) },
    );
  }

  /** The store cannot be reached or written. */
  static unavailable(store: string, cause: unknown, sessionId?: string, key?: string): ContentStoreError {
    const reason = cause instanceof Error ? cause.message : String(cause);
    const what =
      sessionId === undefined
        ? ''
        : ` for session ${JSON.stringify(sessionId)}${key === undefined ? '' : `, key ${key}`}`;
    return new ContentStoreError(
      'STORE_UNAVAILABLE',
      `Content store ${store} is unavailable${what} (${reason}): check that it is running and reachable, then retry.`,
      { ...(sessionId === undefined ? {} : { sessionId }), ...(key === undefined ? {} : { key }), cause },
    );
  }
}
