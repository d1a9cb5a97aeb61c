import type { InterruptBehavior } from '../../dispatch';

/**
 * Settings of one tool of an MCP server (`connectMcpServer`'s `tools`, keyed by the server's own tool
 * name). Each overrides the server-wide setting of the same name, which overrides the default the
 * tool's annotations give.
 */
export interface McpToolOptions {
  /**
   * What a user interrupt does to a running call: `cancel` aborts it (the server is sent
   * `notifications/cancelled`), `block` lets it finish. Default: `cancel` for a tool whose trusted
   * annotations say `readOnlyHint: true`, `block` for every other one.
   */
  readonly interruptBehavior?: InterruptBehavior;
  /**
   * Whether a call waits for a human's approval (`approveToolCall`; a non-interactive session denies
   * it). Default: `false` for a tool whose trusted annotations say `readOnlyHint: true`, `true` for
   * every other one, `destructiveHint: false` included.
   */
  readonly requiresPermission?: boolean;
  /** Time limit of each call, in milliseconds. Default: the server's `toolTimeoutMs` (60_000). */
  readonly timeoutMs?: number;
}

/** Every key of {@link McpToolOptions}; the compiler keeps this list complete. */
export const mcpToolOptionKeys = Object.keys({
  interruptBehavior: true,
  requiresPermission: true,
  timeoutMs: true,
} satisfies Record<keyof McpToolOptions, true>);
