import { ToolrailError } from '../errors';

/**
 * A subscriber asked for events no run of the session holds any more (each run keeps its newest
 * events only): `resumeFrom` is the oldest offset still held. Subscribe again from there.
 */
export class FeedGapError extends ToolrailError {
  static override readonly brand: symbol = Symbol.for('toolrail.error.FEED_GAP');
  /** The offset asked for. */
  readonly requested: number;
  /** The oldest offset the session still holds. */
  readonly resumeFrom: number;

  constructor(requested: number, resumeFrom: number) {
    super({
      code: 'FEED_GAP',
      message: `the session's feed no longer holds offset ${requested}: its oldest event is ${resumeFrom}; subscribe from ${resumeFrom}`,
    });
    this.requested = requested;
    this.resumeFrom = resumeFrom;
  }
}
