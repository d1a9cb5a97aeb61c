import type { JsonObject, JsonValue } from './json-value';
import type { ToolRetryPolicy } from './tool-retry-policy';

/** How a tool may run alongside others: the seed's concurrency classes. */
export const ConcurrencyClass = {
  /** Only reads: runs concurrently with other safe calls. */
  READ_ONLY: 'READ_ONLY',
  /** Writes shared state: runs alone, after everything before it. */
  WRITE_EXCLUSIVE: 'WRITE_EXCLUSIVE',
  /** Side effects that are hard to bound: runs alone; the default. */
  UNSAFE: 'UNSAFE',
} as const;

/** One of the {@link ConcurrencyClass} strings. */
export type ConcurrencyClass = (typeof ConcurrencyClass)[keyof typeof ConcurrencyClass];

/** What happens to a running call when the user sends a new message: stop it, or let it finish. */
export type InterruptBehavior = 'cancel' | 'block';

/** The permission verdict of one call. `ask` means a human decides before it runs. */
export type PermissionBehavior = 'allow' | 'deny' | 'ask';

/**
 * A tool that is a Temporal activity of the user's: the session's workflow schedules that activity
 * type itself (on any task queue, served by a worker of any language) instead of `executeTool`.
 */
export interface ActivityToolTarget {
  /** The activity type the workflow schedules, with the call's parsed input as its one argument. */
  readonly activityType: string;
  /** The task queue of the workers that have it. Defaults to the session's. */
  readonly taskQueue?: string;
  /**
   * How long one scheduling of the call waits for a worker to take it before the session says, in a
   * notice, that it waits for one (and schedules it again: a call no worker took never ran), in
   * milliseconds. Defaults to 60 000.
   */
  readonly waitForWorkerMs?: number;
}

/** How the workflow should run one call (activity options). Plain JSON. */
export interface ToolExecutionOptions {
  /** Wall-clock limit of one attempt, in milliseconds. */
  readonly timeoutMs: number;
  /** Longest silence between heartbeats, in milliseconds; `null` when the tool does not heartbeat. */
  readonly heartbeatTimeoutMs: number | null;
  readonly retry: ToolRetryPolicy;
  /** Run as a local activity (set only for read-only, non-destructive calls of tools that opt in). */
  readonly localActivity?: boolean;
  /** The user's activity that is this tool, when it is one (`activityTool`). */
  readonly activity?: ActivityToolTarget;
}

/**
 * A call that passed resolution, both validation phases and the permission check, classified for
 * dispatch. Plain JSON: it goes from the activity that prepares calls to the workflow (which
 * partitions, asks for approvals and applies rules) and back to the activity that executes it.
 */
export interface PreparedCall {
  readonly type: 'prepared-call';
  readonly callId: string;
  /** The name the model used (may be an alias). */
  readonly requestedName: string;
  /** The registered tool it resolved to. */
  readonly toolName: string;
  /** The arguments as the model sent them, normalised to a JSON object; what execution parses again. */
  readonly args: JsonObject;
  /** The schema-parsed input in JSON form (defaults applied): what rules and humans should look at. */
  readonly input: JsonValue;
  readonly concurrency: ConcurrencyClass;
  /** Whether this call may share a concurrent batch; false whenever in doubt. */
  readonly concurrencySafe: boolean;
  readonly readOnly: boolean;
  readonly destructive: boolean;
  readonly openWorld: boolean;
  readonly permission: PermissionBehavior;
  /** Why the permission is `deny` or `ask`, written for the model or the approver; `null` for `allow`. */
  readonly permissionMessage: string | null;
  readonly interruptBehavior: InterruptBehavior;
  readonly requiresUserInteraction: boolean;
  readonly execution: ToolExecutionOptions;
}
