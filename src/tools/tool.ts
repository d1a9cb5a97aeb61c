import type { z } from 'zod';
import type { JsonObject, ToolRetryPolicy } from '../dispatch';
import type { ActivityToolTarget, ConcurrencyClass, InterruptBehavior } from '../dispatch';
import type { ToolCallContext, ToolExecutionContext } from './tool-context';
import type { InputValidation, PermissionDecision } from './tool-verdicts';

/** Where a tool comes from. Only `local` tools may declare aliases. */
export type ToolOrigin =
  { readonly kind: 'local' } | { readonly kind: 'mcp'; readonly server: string; readonly tool: string };

/** The per-call facts the dispatcher and the permission system read; decided on parsed input. */
export interface ToolCallTraits {
  readonly concurrencySafe: boolean;
  readonly readOnly: boolean;
  readonly destructive: boolean;
  readonly openWorld: boolean;
}

/**
 * A tool as `defineTool` builds it: every flag resolved to its (fail-closed) default, and every
 * author-supplied function wrapped so that it cannot throw past the lifecycle: a throwing classifier
 * reports the unsafe answer, a throwing `validateInput` refuses, a throwing `checkPermissions` denies.
 */
export interface Tool<INPUT = unknown, OUTPUT = unknown> {
  readonly name: string;
  readonly description: string;
  /** The zod schema; parsing with it yields `INPUT`. */
  readonly inputSchema: z.ZodType;
  /** Portable JSON Schema of the input (computed once, at definition time). */
  readonly inputJsonSchema: JsonObject;
  /** OpenAI strict-mode variant, or `null` when the schema has none. */
  readonly strictInputJsonSchema: JsonObject | null;
  readonly aliases: readonly string[];
  readonly concurrency: ConcurrencyClass;
  readonly requiresPermission: boolean;
  readonly requiresUserInteraction: boolean;
  readonly interruptBehavior: InterruptBehavior;
  /** Results longer than this many characters are offloaded to the content store; `Infinity` never. */
  readonly maxResultSizeChars: number;
  readonly shouldDefer: boolean;
  readonly alwaysLoad: boolean;
  /** Extra words `tool_search` matches on. */
  readonly searchHint: string;
  readonly origin: ToolOrigin;
  /** Wall-clock limit of one attempt, in milliseconds. */
  readonly timeoutMs: number;
  /** Longest silence between heartbeats, in milliseconds; `null` when the tool does not heartbeat. */
  readonly heartbeatTimeoutMs: number | null;
  /** Whether read-only, non-destructive calls run as local activities (see `ToolDefinition.localActivity`). */
  readonly localActivity?: boolean;
  /** The declared retry policy, or `null` to use the default for the call's traits. */
  readonly retry: ToolRetryPolicy | null;
  /** The user's activity that is this tool (`activityTool`): the session schedules it instead of running `execute`. */
  readonly activity?: ActivityToolTarget;
  /** Whether the tool is offered this turn; `false` if the check throws. */
  isEnabled(): boolean;
  /**
   * Why the tool cannot run now although it is enabled (an MCP tool whose server is down), or
   * `undefined` when it can. Read when each turn's catalog is built and when a call is prepared.
   * Absent: always available.
   */
  readonly unavailableReason?: () => string | undefined;
  /** Per-call traits; never throws (a throwing classifier gives the unsafe answer). */
  classify(input: INPUT): ToolCallTraits;
  validateInput(input: INPUT, context: ToolCallContext): Promise<InputValidation>;
  checkPermissions(input: INPUT, context: ToolCallContext): Promise<PermissionDecision>;
  execute(input: INPUT, context: ToolExecutionContext): Promise<OUTPUT>;
}

/** A tool of any input and output, as registries hold them. */
export type AnyTool = Tool<unknown, unknown>;
