/** How to reach an MCP server: a child process over stdio, or a streamable HTTP endpoint. */
export type McpTransportOptions =
  | {
      readonly type: 'stdio';
      readonly command: string;
      readonly args?: readonly string[];
      /** Added to the SDK's safe default environment. Default: none. */
      readonly env?: Readonly<Record<string, string>>;
      readonly cwd?: string;
      /** Where the server's stderr goes. Default: `inherit`. */
      readonly stderr?: 'inherit' | 'ignore' | 'pipe';
    }
  | {
      readonly type: 'streamable-http';
      readonly url: string | URL;
      /** Sent with every request (e.g. authorization). Default: none. */
      readonly headers?: Readonly<Record<string, string>>;
    };
