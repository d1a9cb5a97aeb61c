/** What the lifecycle knows about the session a call belongs to. */
export interface ToolSessionContext {
  readonly sessionId: string;
  /** Whether a human can answer; when false, `ask` becomes `deny` and interactive tools are refused. */
  readonly interactive: boolean;
  /** Aborts the call (pass a `ToolAbortError` as the reason to say why). Default: never aborted. */
  readonly signal?: AbortSignal;
  /** Called by the tool's `heartbeat()`; typically the activity heartbeat. Default: no-op. */
  readonly heartbeat?: (details?: unknown) => void;
  /** Key the tool can use to make side effects idempotent. Default: `<sessionId>/<callId>`. */
  readonly idempotencyKey?: string;
}
