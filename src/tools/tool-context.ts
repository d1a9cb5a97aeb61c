/** What `validateInput` and `checkPermissions` receive about the call being judged. */
export interface ToolCallContext {
  readonly sessionId: string;
  readonly callId: string;
  /** Whether a human can answer questions in this session (false for batch and background runs). */
  readonly interactive: boolean;
  /** Aborted when the call is cancelled; long checks should stop. */
  readonly signal: AbortSignal;
}

/** What `execute` receives. */
export interface ToolExecutionContext extends ToolCallContext {
  /** Stable across retries of the same call (`<sessionId>/<callId>` unless the executor gives one). */
  readonly idempotencyKey: string;
  /** Tells the workflow the call is alive, with optional progress details; a no-op where nobody listens. */
  heartbeat(details?: unknown): void;
}
