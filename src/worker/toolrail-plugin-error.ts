import { ToolrailError } from '../errors';

/** Why toolrail's plugin refused a worker or a client. */
export const ToolrailPluginErrorCode = {
  /** The plugin is in the worker's (or client's) plugins more than once, its connection's included. */
  PLUGIN_CONFIGURED_TWICE: 'PLUGIN_CONFIGURED_TWICE',
  /** An activity of the worker has the name of one of toolrail's activities. */
  ACTIVITY_NAME_CLASH: 'ACTIVITY_NAME_CLASH',
  /** A tool has the name of an activity of the worker. */
  TOOL_NAME_CLASH: 'TOOL_NAME_CLASH',
  /** The namespace lacks one of toolrail's search attributes, or has it with another type. */
  SEARCH_ATTRIBUTES_MISSING: 'SEARCH_ATTRIBUTES_MISSING',
  /** A live channel is configured on a worker created without a `connection` (its relay reads histories through it). */
  LIVE_NEEDS_CONNECTION: 'LIVE_NEEDS_CONNECTION',
} as const;

/** One of the {@link ToolrailPluginErrorCode} strings. */
export type ToolrailPluginErrorCode = (typeof ToolrailPluginErrorCode)[keyof typeof ToolrailPluginErrorCode];

/** Raised when toolrail's plugin cannot join a worker or a client as it is configured; the message says the fix. */
export class ToolrailPluginError extends ToolrailError {
  static override readonly brand = Symbol.for('toolrail.error.PLUGIN');
  declare readonly code: ToolrailPluginErrorCode;

  constructor({ code, message }: { code: ToolrailPluginErrorCode; message: string }) {
    super({ code, message });
    this.name = 'ToolrailPluginError';
  }
}
