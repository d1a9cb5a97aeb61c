import { ToolrailError } from '../errors';
import { isRetryableModelErrorCode, type ModelErrorCode } from './model-error-code';

/** The plain-JSON view of a {@link ModelError}, for logs and `ApplicationFailure` details. */
export interface ModelErrorDetails {
  code: ModelErrorCode;
  message: string;
  provider: string;
  retryable: boolean;
  retryAfterMs?: number;
  status?: number;
}

/** Constructor options of {@link ModelError}. */
export interface ModelErrorOptions {
  code: ModelErrorCode;
  message: string;
  /** The adapter's provider name (`openai`, `anthropic`, `scripted`, ...). */
  provider: string;
  /** Defaults to {@link isRetryableModelErrorCode}(code). */
  retryable?: boolean;
  /** How long the server asked us to wait before retrying, in milliseconds. */
  retryAfterMs?: number;
  /** The HTTP status, when the failure was an HTTP response. */
  status?: number;
  cause?: unknown;
}

/**
 * Every failure of a model call, one class with a stable {@link ModelErrorCode}. `retryable` tells
 * the activity whether Temporal should retry; `retryAfterMs` how soon.
 */
export class ModelError extends ToolrailError {
  static override readonly brand = Symbol.for('toolrail.error.MODEL_ERROR');
  declare readonly code: ModelErrorCode;
  readonly provider: string;
  readonly retryable: boolean;
  declare readonly retryAfterMs?: number;
  declare readonly status?: number;

  constructor({ code, message, provider, retryable, retryAfterMs, status, cause }: ModelErrorOptions) {
    super({ code, message: `${provider}: ${message}`, cause });
    this.name = 'ModelError';
    this.provider = provider;
    this.retryable = retryable ?? isRetryableModelErrorCode(code);
    if (retryAfterMs !== undefined) this.retryAfterMs = retryAfterMs;
    if (status !== undefined) this.status = status;
  }

  /** The error as plain JSON (no cause, no stack). */
  toJSON(): ModelErrorDetails {
    return {
      code: this.code,
      message: this.message,
      provider: this.provider,
      retryable: this.retryable,
      ...(this.retryAfterMs === undefined ? {} : { retryAfterMs: this.retryAfterMs }),
      ...(this.status === undefined ? {} : { status: this.status }),
    };
  }
}
