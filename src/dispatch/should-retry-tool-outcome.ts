import type { PreparedCall } from './prepared-call';
import type { ToolOutcome } from './tool-outcome';

/** Options of {@link shouldRetryToolOutcome}. */
export interface ShouldRetryToolOutcomeOptions {
  readonly outcome: ToolOutcome;
  readonly prepared: PreparedCall;
  /** The attempt that produced `outcome`, starting at 1 (Temporal's `info.attempt`). */
  readonly attempt: number;
}

/**
 * Whether the executor should fail this attempt so that it is retried, instead of reporting the
 * outcome: only a retryable error, and only while attempts remain under the call's retry policy.
 */
export function shouldRetryToolOutcome({ outcome, prepared, attempt }: ShouldRetryToolOutcomeOptions): boolean {
  return (
    outcome.type === 'tool-error' && outcome.retryable === true && attempt < prepared.execution.retry.maximumAttempts
  );
}
