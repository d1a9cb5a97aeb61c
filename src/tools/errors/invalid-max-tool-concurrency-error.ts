const marker = Symbol.for('toolrail.error.INVALID_MAX_TOOL_CONCURRENCY');

/** Raised when `TOOLRAIL_MAX_TOOL_CONCURRENCY` is set to something other than a positive integer. */
export class InvalidMaxToolConcurrencyError extends Error {
  readonly code = 'INVALID_MAX_TOOL_CONCURRENCY';
  readonly [marker] = true;
  readonly value: string;

  constructor({ value }: { value: string }) {
    super(`TOOLRAIL_MAX_TOOL_CONCURRENCY must be a positive integer, got "${value}"`);
    this.name = 'InvalidMaxToolConcurrencyError';
    this.value = value;
  }

  static isInstance(error: unknown): error is InvalidMaxToolConcurrencyError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
