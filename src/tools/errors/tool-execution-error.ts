import { ToolrailError } from '../../errors';

/**
 * What a tool throws to fail on purpose, with a message written for the model. Unlike other thrown
 * errors it is not retried unless it says `retryable: true`.
 */
export class ToolExecutionError extends ToolrailError {
  static override readonly brand = Symbol.for('toolrail.error.TOOL_EXECUTION_FAILED');
  declare readonly code: 'TOOL_EXECUTION_FAILED';
  /** Whether running the call again may succeed. Defaults to false. */
  readonly retryable: boolean;

  constructor({ message, retryable = false, cause }: { message: string; retryable?: boolean; cause?: unknown }) {
    super({ code: 'TOOL_EXECUTION_FAILED', message, cause });
    this.name = 'ToolExecutionError';
    this.retryable = retryable;
  }
}
