import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { McpServerConnection } from './mcp-server-connection';
import type { McpTransportOptions } from './mcp-transport-options';

/** Options of {@link connectMcpServer}. */
export interface ConnectMcpServerOptions {
  /** Short name of the server; part of every tool name (`mcp__<name>__<tool>`). */
  readonly name: string;
  readonly transport: McpTransportOptions;
  /** Whether the server's annotations may relax the fail-closed defaults. Default: true. */
  readonly trustAnnotations?: boolean;
  /** Defer all of its tools behind `tool_search`. Default: false. */
  readonly deferTools?: boolean;
  /** Time limit of each tool call, in milliseconds. Default: 60_000. */
  readonly toolTimeoutMs?: number;
}

/**
 * Connects to an MCP server with the official SDK client (stdio or streamable HTTP) and returns a
 * connection whose tools can be bridged into a registry. Close it when done.
 */
export async function connectMcpServer(options: ConnectMcpServerOptions): Promise<McpServerConnection> {
  // The client needs the change handler before it connects; the connection needs the connected client.
  const late: { connection?: McpServerConnection } = {};
  const client = new Client(
    { name: 'toolrail', version: '0.1.0' },
    {
      listChanged: {
        tools: { autoRefresh: false, debounceMs: 0, onChanged: () => late.connection?.markToolListChanged() },
      },
    },
  );
  await client.connect(createTransport(options.transport));
  late.connection = new McpServerConnection({ client, ...options });
  return late.connection;
}

function createTransport(options: McpTransportOptions): Transport {
  if (options.type === 'stdio') {
    return new StdioClientTransport({
      command: options.command,
      args: [...(options.args ?? [])],
      ...(options.env === undefined ? {} : { env: { ...options.env } }),
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      stderr: options.stderr ?? 'inherit',
    });
  }
  const url = typeof options.url === 'string' ? new URL(options.url) : options.url;
  return new StreamableHTTPClientTransport(
    url,
    options.headers === undefined ? {} : { requestInit: { headers: { ...options.headers } } },
  );
}
