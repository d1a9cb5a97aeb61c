/**
 * How to reach an MCP server: a child process over stdio (started with `command` and `args`, no
 * shell), or a Streamable HTTP endpoint.
 */
export type McpTransportOptions =
  | {
      readonly type: 'stdio';
      readonly command: string;
      readonly args?: readonly string[];
      /** Added to the SDK's safe default environment. Default: none. */
      readonly env?: Readonly<Record<string, string>>;
      readonly cwd?: string;
      /**
       * Whether the server's stderr is also copied to this process's stderr (`inherit`) or not
       * (`ignore`). Its last lines are kept either way, for the errors that say why it stopped.
       * Default: `inherit`.
       */
      readonly stderr?: 'inherit' | 'ignore';
    }
  | {
      readonly type: 'streamable-http';
      readonly url: string | URL;
      /** Sent with every request (e.g. authorization). Default: none. */
      readonly headers?: Readonly<Record<string, string>>;
    };
