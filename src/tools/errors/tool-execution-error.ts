const marker = Symbol.for('toolrail.error.TOOL_EXECUTION_FAILED');

/**
 * What a tool throws to fail on purpose, with a message written for the model. Unlike other thrown
 * errors it is not retried unless it says `retryable: true`.
 */
export class ToolExecutionError extends Error {
  readonly code = 'TOOL_EXECUTION_FAILED';
  readonly [marker] = true;
  /** Whether running the call again may succeed. Defaults to false. */
  readonly retryable: boolean;

  constructor({ message, retryable = false, cause }: { message: string; retryable?: boolean; cause?: unknown }) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'ToolExecutionError';
    this.retryable = retryable;
  }

  static isInstance(error: unknown): error is ToolExecutionError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
