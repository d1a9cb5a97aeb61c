/** How running a tool ended. */
export type ToolExecutionEnd =
  | { readonly kind: 'returned'; readonly output: unknown }
  | { readonly kind: 'threw'; readonly error: unknown }
  | { readonly kind: 'aborted'; readonly reason: unknown; readonly stillRunning?: boolean };

/**
 * What to do with a tool that has not settled `graceMs` milliseconds after its signal fired
 * (cancellation is cooperative: a tool that ignores its signal keeps running).
 */
export interface AfterAbort {
  /** How long an aborted tool may take to settle before it is reported as still running, in milliseconds. */
  readonly graceMs: number;
  /** Called once when the grace period ends and the tool is still running. */
  readonly onStillRunning: () => void;
  /** Called once when such a still-running tool finally returns or throws. */
  readonly onLateEnd: (end: Extract<ToolExecutionEnd, { kind: 'returned' | 'threw' }>) => void;
}
