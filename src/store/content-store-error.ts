import { ToolrailError } from '../errors';
/**
 * Why a content store operation failed: the content is not there (`CONTENT_MISSING`) or its bytes
 * changed (`CONTENT_CORRUPT`) or this process's payload codecs cannot decode it (`CONTENT_UNDECODABLE`:
 * written without codecs, with others, or with another key); the store cannot be reached or written
 * now (`STORE_UNAVAILABLE`:
 * transient); the session belongs to another store (`STORE_MISMATCH`); the store spec or a key is
 * unusable (`INVALID_STORE`).
 */
export type ContentStoreErrorCode =
  | 'CONTENT_MISSING'
  | 'CONTENT_CORRUPT'
  | 'CONTENT_UNDECODABLE'
  | 'STORE_UNAVAILABLE'
  | 'STORE_MISMATCH'
  | 'INVALID_STORE';

/** Options of a {@link ContentStoreError}. */
export interface ContentStoreErrorOptions {
  readonly code: ContentStoreErrorCode;
  /** What failed and what to do about it; passwords in it are redacted. */
  readonly message: string;
  /** The store's description (never a password). */
  readonly store?: string;
  readonly sessionId?: string;
  /** The content key (or `record "<name>"`). */
  readonly key?: string;
  readonly cause?: unknown;
}

/** A content store failure naming the store, the session and the key, with what to do about it. */
export class ContentStoreError extends ToolrailError {
  static override readonly brand = Symbol.for('toolrail.error.CONTENT_STORE');
  declare readonly code: ContentStoreErrorCode;
  /** The store's description (never a password), when known. */
  readonly store: string | undefined;
  /** The session involved, when there is one. */
  readonly sessionId: string | undefined;
  /** The content key involved (or `record "<name>"`), when there is one. */
  readonly key: string | undefined;

  constructor({ code, message, store, sessionId, key, cause }: ContentStoreErrorOptions) {
    super({ code, message: redactSecrets(message), cause });
    this.name = 'ContentStoreError';
    this.store = store;
    this.sessionId = sessionId;
    this.key = key;
  }

  /** Content that was never stored here, or was deleted. */
  static missing(store: string, sessionId: string, key: string): ContentStoreError {
    return new ContentStoreError({
      code: 'CONTENT_MISSING',
      message: `Content ${key} of session ${JSON.stringify(sessionId)} is not in ${store}: it was deleted (by retention or by hand) or written to another store. Restore the session's content into this store from a backup, or check that every worker and client of the session uses this store.`,
      store,
      sessionId,
      key,
    });
  }

  /** Content whose bytes no longer hash to their key. */
  static corrupt(store: string, sessionId: string, key: string, actual: string): ContentStoreError {
    return new ContentStoreError({
      code: 'CONTENT_CORRUPT',
      message: `Content ${key} of session ${JSON.stringify(sessionId)} in ${store} is corrupt (its bytes hash to ${actual}): restore it from a backup of the store.`,
      store,
      sessionId,
      key,
    });
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
    return new ContentStoreError({
      code: 'CONTENT_UNDECODABLE',
      message: `Content ${key} of session ${JSON.stringify(sessionId)} in ${store} cannot be read: ${reason}.`,
      store,
      sessionId,
      key,
      ...(cause === undefined ? {} : { cause }),
    });
  }

  /** The store cannot be reached or written (connection refused, timeout, disk full, permissions…). */
  static unavailable(store: string, cause: unknown, sessionId?: string, key?: string): ContentStoreError {
    const what =
      sessionId === undefined
        ? ''
        : ` for session ${JSON.stringify(sessionId)}${key === undefined ? '' : `, key ${key}`}`;
    return new ContentStoreError({
      code: 'STORE_UNAVAILABLE',
      message: `Content store ${store} is unavailable${what} (${describeCause(cause)}): check that it is running, reachable and not full.`,
      store,
      ...(sessionId === undefined ? {} : { sessionId }),
      ...(key === undefined ? {} : { key }),
      cause,
    });
  }

  /** The session's content lives in another store than this process's. */
  static mismatch(sessionStore: string, thisStore: string, sessionId: string): ContentStoreError {
    return new ContentStoreError({
      code: 'STORE_MISMATCH',
      message: `Session ${JSON.stringify(sessionId)} keeps its content in ${sessionStore}, but this worker uses ${thisStore}: a worker with the session's store must serve it (give every worker on the task queue the same TOOLRAIL_CONTENT_STORE).`,
      store: thisStore,
      sessionId,
    });
  }
}

/** `message (CODE)` of an error and of its causes, e.g. `connect ECONNREFUSED 127.0.0.1:5432`. */
function describeCause(cause: unknown): string {
  if (cause instanceof AggregateError && cause.errors.length > 0) return describeCause(cause.errors[0]);
  if (!(cause instanceof Error)) return String(cause);
  const code = (cause as { code?: unknown }).code;
  const message = cause.message === '' ? cause.name : cause.message;
  return typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message;
}

/** `text` with the passwords of URLs (`scheme://user:password@host`) and `password=` settings replaced by `***`. */
export function redactSecrets(text: string): string {
  return text
    .replace(/([a-z][a-z0-9+.-]*:\/\/[^:/@\s]*):[^@\s/]*@/gi, '$1:***@')
    .replace(/(password\s*=\s*)[^\s&;]+/gi, '$1***');
}
