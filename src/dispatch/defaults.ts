import type { ToolRetryPolicy } from './tool-retry-policy';

/** Largest number of calls in one concurrent batch unless configured otherwise. */
export const DEFAULT_MAX_TOOL_CONCURRENCY = 10;

/** `maxResultSizeChars` of a tool that declares none, in characters. */
export const DEFAULT_MAX_RESULT_SIZE_CHARS = 50_000;

/** `timeoutMs` of a tool that declares none: one attempt's wall-clock limit, in milliseconds. */
export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;

/** Retry policy of read-only calls of tools that declare none: 3 attempts, 1 s then doubling, at most 30 s. */
export const DEFAULT_READ_ONLY_RETRY: ToolRetryPolicy = {
  maximumAttempts: 3,
  initialIntervalMs: 1_000,
  backoffCoefficient: 2,
  maximumIntervalMs: 30_000,
};

/** The policy of calls that must run at most once: destructive ones, and writes without a declared policy. */
export const AT_MOST_ONCE: ToolRetryPolicy = { ...DEFAULT_READ_ONLY_RETRY, maximumAttempts: 1 };

/**
 * Time a tool activity has after the tool's `timeoutMs` to store its result, in milliseconds: while
 * the content store fails, storing is tried again until then (the call is then reported as having
 * run, its result unstored). The activity's start-to-close timeout is `timeoutMs` plus this.
 */
export const TOOL_RESULT_STORE_MARGIN_MS = 30_000;
