import { ApplicationFailure } from '@temporalio/workflow';

/** An update refused by its validator: non-retryable (the same payload fails again), and never written to history. */
export function refusedUpdate(update: string, problem: string): ApplicationFailure {
  return ApplicationFailure.nonRetryable(`${update} refused: ${problem}`, 'InvalidUpdate');
}

/** `validate`, whose refusals (any error it throws) become {@link refusedUpdate}s. */
export function refusing<I>(update: string, validate: (input: I) => void): (input: I) => void {
  return (input) => {
    try {
      validate(input);
    } catch (error) {
      throw refusedUpdate(update, error instanceof Error ? error.message : String(error));
    }
  };
}
