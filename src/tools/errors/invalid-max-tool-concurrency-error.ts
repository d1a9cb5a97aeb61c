import { ToolrailError } from '../../kernel/toolrail-error';

/** Raised when `TOOLRAIL_MAX_TOOL_CONCURRENCY` is set to something other than a positive integer. */
export class InvalidMaxToolConcurrencyError extends ToolrailError {
  static override readonly brand = Symbol.for('toolrail.error.INVALID_MAX_TOOL_CONCURRENCY');
  declare readonly code: 'INVALID_MAX_TOOL_CONCURRENCY';
  readonly value: string;

  constructor({ value }: { value: string }) {
    super({
      code: 'INVALID_MAX_TOOL_CONCURRENCY',
      message: `TOOLRAIL_MAX_TOOL_CONCURRENCY must be a positive integer, got "${value}"`,
    });
    this.name = 'InvalidMaxToolConcurrencyError';
    this.value = value;
  }
}
