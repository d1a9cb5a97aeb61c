import type { AnyTool } from '../tool';

/** An MCP tool the bridge could not turn into a toolrail tool (or the registry refused), and why. */
export interface SkippedMcpTool {
  readonly name: string;
  readonly reason: string;
}

/** The tools of a server, as toolrail tools, plus those that could not be bridged. */
export interface McpToolList {
  readonly tools: readonly AnyTool[];
  readonly skipped: readonly SkippedMcpTool[];
}
