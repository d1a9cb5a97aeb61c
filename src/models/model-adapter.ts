import type { ModelRequest } from './model-request';
import type { ModelResponse } from './model-response';

/** Per-call options every adapter honours. */
export interface ModelCallOptions {
  /** Aborting it stops the call (the HTTP request is closed); the call rejects with a `ModelError` `ABORTED`. */
  readonly signal: AbortSignal;
  /** Receives the answer's text piece by piece as the model writes it, from adapters that stream. */
  readonly onTextDelta?: (delta: string) => void;
}

/**
 * One model provider behind the provider-neutral request and response shapes. Provider and
 * transport failures reject with a `ModelError`, whose `code` and `retryable` say how to retry.
 */
export interface ModelAdapter {
  /** Short provider name, e.g. `openai`, `anthropic`, `scripted`. */
  readonly provider: string;
  complete(request: ModelRequest, options: ModelCallOptions): Promise<ModelResponse>;
}
