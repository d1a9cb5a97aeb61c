/** Largest number of calls in one concurrent batch unless configured otherwise. */
export const DEFAULT_MAX_TOOL_CONCURRENCY = 10;
