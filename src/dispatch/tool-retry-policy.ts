/** Retry policy of one call, in Temporal's terms. Destructive calls always get `maximumAttempts: 1`. */
export interface ToolRetryPolicy {
  /** Attempts in total, first one included; 1 means never retried. */
  readonly maximumAttempts: number;
  /** Delay before the first retry, in milliseconds. */
  readonly initialIntervalMs: number;
  /** Factor applied to the delay after each retry. */
  readonly backoffCoefficient: number;
  /** Longest delay between attempts, in milliseconds. */
  readonly maximumIntervalMs: number;
}
