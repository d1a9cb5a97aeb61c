import { ToolrailError } from '../../errors';

/** The abort codes a caller can give a running call; they become the outcome's code. */
export type ToolAbortCode = 'INTERRUPTED' | 'SIBLING_ABORTED' | 'TIMEOUT';

/**
 * The reason to pass to `AbortController.abort()` when stopping a running call, so its outcome says
 * why: `controller.abort(new ToolAbortError({ code: 'SIBLING_ABORTED', message: 'read_file failed' }))`.
 * Any other abort reason is reported as `INTERRUPTED`.
 */
export class ToolAbortError extends ToolrailError {
  static override readonly brand = Symbol.for('toolrail.error.TOOL_ABORTED');
  declare readonly code: ToolAbortCode;

  constructor({ code, message }: { code: ToolAbortCode; message?: string }) {
    super({ code, message: message ?? defaultMessages[code] });
    this.name = 'ToolAbortError';
  }
}

const defaultMessages: Record<ToolAbortCode, string> = {
  INTERRUPTED: 'The call was interrupted before it finished.',
  SIBLING_ABORTED: 'The call was cancelled because another call of the same batch failed.',
  TIMEOUT: 'The call took longer than its time limit.',
};
