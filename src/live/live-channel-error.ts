import { ToolrailError } from '../errors';

/** Codes of {@link LiveChannelError}. */
export type LiveChannelErrorCode = 'INVALID_LIVE_CHANNEL' | 'LIVE_CHANNEL_UNSUPPORTED' | 'LIVE_CHANNEL_CLOSED';

/**
 * A live channel that cannot be opened or used: a spec it does not read (`INVALID_LIVE_CHANNEL`),
 * a platform it does not run on (`LIVE_CHANNEL_UNSUPPORTED`), or a subscription on a closed
 * channel (`LIVE_CHANNEL_CLOSED`).
 */
export class LiveChannelError extends ToolrailError {
  static override readonly brand: symbol = Symbol.for('toolrail.error.LIVE_CHANNEL');
  declare readonly code: LiveChannelErrorCode;

  constructor(code: LiveChannelErrorCode, message: string) {
    super({ code, message });
  }
}
