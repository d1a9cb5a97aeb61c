import { ApplicationFailure } from '@temporalio/common';
import type { ModelError } from './model-error';

/**
 * The `ApplicationFailure` an activity throws for a {@link ModelError}: `type` is the stable code,
 * `nonRetryable` is `!retryable`, `nextRetryDelay` is the server's retry-after (when given), and the
 * error's plain JSON is the single detail. `ABORTED` should not go through here: on cancellation the
 * activity rethrows its own cancellation reason so Temporal records the activity as cancelled.
 */
export function modelErrorToApplicationFailure(error: ModelError): ApplicationFailure {
  return ApplicationFailure.create({
    type: error.code,
    message: error.message,
    nonRetryable: !error.retryable,
    details: [error.toJSON()],
    ...(error.retryAfterMs !== undefined && { nextRetryDelay: error.retryAfterMs }),
  });
}
