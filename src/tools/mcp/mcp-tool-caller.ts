/** What the bridge needs from an MCP client to run one tool: `tools/call` with cancellation and progress. */
export type McpToolCaller = (
  request: { readonly name: string; readonly arguments: Record<string, unknown> },
  options: {
    readonly signal: AbortSignal;
    /** Request timeout, in milliseconds; progress notifications restart it. */
    readonly timeoutMs: number;
    readonly onProgress: (progress: unknown) => void;
  },
) => Promise<{ content?: unknown; structuredContent?: unknown; isError?: unknown }>;
