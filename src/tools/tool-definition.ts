import type { z } from 'zod';
import type { ConcurrencyClass, InterruptBehavior } from '../dispatch';
import type { ToolRetryPolicy } from '../dispatch';
import type { ToolOrigin } from './tool';
import type { ToolCallContext, ToolExecutionContext } from './tool-context';
import type { InputValidation, PermissionDecision } from './tool-verdicts';

/**
 * What a tool author writes. Everything but `name`, `description`, `inputSchema` and `execute` is
 * optional, and an omitted flag takes the fail-closed default: not concurrency-safe, not read-only,
 * destructive, open-world, permission required. `concurrency: 'READ_ONLY'` is the affirmative claim
 * that relaxes them.
 */
export interface ToolDefinition<SCHEMA extends z.ZodType, OUTPUT> {
  /** What the model calls; letters, digits, `_` and `-`, at most 64. */
  readonly name: string;
  /** What the tool does and when to use it, written for a model reading it cold. */
  readonly description: string;
  /** Input schema; its root must be an object. Recursive schemas are refused. */
  readonly inputSchema: SCHEMA;
  /** Does the work, with the parsed input. A `ToolExecutionError` is a deliberate, model-facing failure. */
  readonly execute: (input: z.output<SCHEMA>, context: ToolExecutionContext) => OUTPUT | Promise<OUTPUT>;
  /**
   * Concurrency class. Defaults to `UNSAFE`. `READ_ONLY` makes calls concurrency-safe (while they are
   * read-only and not destructive), read-only, not destructive and free of permission by default.
   */
  readonly concurrency?: ConcurrencyClass;
  /** Per-call concurrency safety; overrides the class. Throwing means unsafe. */
  readonly isConcurrencySafe?: (input: z.output<SCHEMA>) => boolean;
  /** Per-call: modifies no persistent state. Default: true only for `READ_ONLY`. Throwing means false. */
  readonly isReadOnly?: (input: z.output<SCHEMA>) => boolean;
  /** Per-call: irreversible (delete, overwrite, send). Default: false only for `READ_ONLY`. Throwing means true. */
  readonly isDestructive?: (input: z.output<SCHEMA>) => boolean;
  /** Per-call: reaches outside the machine (network, other people). Default: true. Throwing means true. */
  readonly isOpenWorld?: (input: z.output<SCHEMA>) => boolean;
  /**
   * Whether calls need a human's approval when `checkPermissions` is absent. Default: false for
   * `READ_ONLY`, else true.
   */
  readonly requiresPermission?: boolean;
  /** Per-call permission verdict; overrides `requiresPermission`. Throwing means deny. */
  readonly checkPermissions?: (
    input: z.output<SCHEMA>,
    context: ToolCallContext,
  ) => PermissionDecision | Promise<PermissionDecision>;
  /** Business-logic checks after the schema passed. Throwing means invalid. Default: valid. */
  readonly validateInput?: (
    input: z.output<SCHEMA>,
    context: ToolCallContext,
  ) => InputValidation | Promise<InputValidation>;
  /** Needs a human at the keyboard; refused in non-interactive sessions. Default: false. */
  readonly requiresUserInteraction?: boolean;
  /** On a new user message while running: `cancel` stops the call, `block` lets it finish. Default: `block`. */
  readonly interruptBehavior?: InterruptBehavior;
  /**
   * Longer results are offloaded: the whole output stays in the session's content store and the model
   * reads a preview (2,000 characters at most) and its key; `Infinity` never offloads (results over the
   * worker's `resultOffloadBytes` still are). Default: 50_000 characters.
   */
  readonly maxResultSizeChars?: number;
  /** Old names the tool still answers to (local tools only). Default: none. */
  readonly aliases?: readonly string[];
  /** Keep the tool out of the catalog until `tool_search` reveals it. Default: false. */
  readonly shouldDefer?: boolean;
  /** Always in the catalog, even when deferred. Default: false. */
  readonly alwaysLoad?: boolean;
  /** Extra words for `tool_search` to match. Default: none. */
  readonly searchHint?: string;
  /** Whether the tool is offered this turn; checked when each turn's catalog is built. Default: true. */
  readonly isEnabled?: boolean | (() => boolean);
  /** Wall-clock limit of one attempt, in milliseconds. Default: 60_000. */
  readonly timeoutMs?: number;
  /** Longest silence between `heartbeat()` calls, in milliseconds. Default: none (no heartbeat expected). */
  readonly heartbeatTimeoutMs?: number;
  /**
   * Run read-only, non-destructive calls as Temporal local activities: in the worker that runs the
   * session's workflow task, recorded as one marker event, without a round trip through the task queue
   * (in the dispatch benchmark, about half of a one-call turn's time). For short calls only: a local
   * activity keeps the workflow task open while it runs (signals such as interrupts wait for it), has
   * no heartbeat timeout, and runs again if its worker dies before the result is recorded. Ignored for
   * calls that are not read-only or are destructive. Default: false.
   */
  readonly localActivity?: boolean;
  /**
   * Retry policy of non-destructive calls. Default: read-only calls get 3 attempts, other calls 1.
   * Destructive calls always run at most once.
   */
  readonly retry?: Partial<ToolRetryPolicy>;
  /** Where the tool comes from; set by bridges. Default: `{ kind: 'local' }`. */
  readonly origin?: ToolOrigin;
}
