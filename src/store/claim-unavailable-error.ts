import { ToolrailError } from '../errors';

/**
 * Why an External Storage claim cannot be read now, though it may be later: the content store is
 * unavailable (`STORE_UNAVAILABLE`), or the claim's content is missing or corrupt where it must come
 * back (a session read it before and replays it, or the store holds nothing of the claim: deleted
 * with its session, or another store). A worker's workflow task fails with it and Temporal tries the
 * task again, so the session goes on once the content can be read.
 */
export class ClaimUnavailableError extends ToolrailError {
  static override readonly brand = Symbol.for('toolrail.error.CLAIM_UNAVAILABLE');
  declare readonly code: 'CLAIM_UNAVAILABLE';

  constructor({ reason, cause }: { reason?: string; cause: unknown }) {
    const error = cause instanceof Error ? cause.message : String(cause);
    super({
      code: 'CLAIM_UNAVAILABLE',
      message: `Waiting for the content store to read an External Storage claim${reason === undefined ? '' : ` (${reason})`}: ${error}`,
      cause,
    });
    this.name = 'ClaimUnavailableError';
  }
}
