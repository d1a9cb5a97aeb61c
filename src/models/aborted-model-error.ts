import { ModelError } from './model-error';
import { ModelErrorCode } from './model-error-code';

/** The `ABORTED` error of a call whose signal fired; its `cause` is the signal's reason (else `cause`). */
export function abortedModelError(provider: string, signal: AbortSignal, cause?: unknown): ModelError {
  const reason: unknown = signal.aborted ? signal.reason : undefined;
  return new ModelError({
    code: ModelErrorCode.ABORTED,
    message: `the model call was aborted${reason instanceof Error && reason.message ? ` (${reason.message})` : ''}`,
    provider,
    cause: reason ?? cause,
  });
}
