import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describeError } from '../describe-error';
import type { McpTransportOptions } from './mcp-transport-options';
import { StdioServerTransport } from './stdio-server-transport';

/** Characters of an HTTP error body kept in messages. */
const HTTP_BODY_CHARS = 300;

/** How a server is reached; opened anew at each (re)connect. */
export interface McpEndpoint {
  /** How the server is reached, for messages: `node server.js /data` (stdio) or the URL without its query. */
  readonly label: string;
  readonly kind: McpTransportOptions['type'];
  open(): McpLink;
}

/** One open transport to a server, and what it can tell about its own failure. */
export interface McpLink {
  readonly transport: Transport;
  /** The server process's id (stdio) while it runs. */
  readonly pid: number | undefined;
  /**
   * Why the link failed, in words: how the process ended (exit code or signal) with the last lines
   * of its stderr, or the HTTP status or network error of the endpoint.
   */
  explain(error?: unknown): string;
  /** Whether a request's error means the link itself broke, rather than the server refusing the request. */
  isBroken(error: unknown): boolean;
}

/** The endpoint of transport options. */
export function mcpEndpoint(options: McpTransportOptions): McpEndpoint {
  if (options.type === 'stdio') {
    const label = [options.command, ...(options.args ?? [])].join(' ');
    return {
      label,
      kind: 'stdio',
      open: () => {
        const transport = new StdioServerTransport({
          command: options.command,
          ...(options.args === undefined ? {} : { args: options.args }),
          ...(options.env === undefined ? {} : { env: options.env }),
          ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
          forwardStderr: (options.stderr ?? 'inherit') === 'inherit',
        });
        return {
          transport,
          get pid() {
            return transport.pid;
          },
          explain: (error) => explainProcess(transport, error),
          isBroken: (error) => isConnectionClosed(error) || transport.exit !== undefined,
        };
      },
    };
  }
  const url = typeof options.url === 'string' ? new URL(options.url) : options.url;
  return {
    label: `${url.origin}${url.pathname}`,
    kind: 'streamable-http',
    open: () => ({
      transport: new StreamableHTTPClientTransport(
        url,
        options.headers === undefined ? {} : { requestInit: { headers: { ...options.headers } } },
      ),
      pid: undefined,
      explain: explainHttp,
      // The endpoint answered with an HTTP error, or could not be reached: the request never got to
      // the server's MCP layer.
      isBroken: (error) =>
        isConnectionClosed(error) || error instanceof StreamableHTTPError || error instanceof TypeError,
    }),
  };
}

function isConnectionClosed(error: unknown): boolean {
  return error instanceof McpError && error.code === (ErrorCode.ConnectionClosed as number);
}

function explainProcess(transport: StdioServerTransport, error: unknown): string {
  const { spawnError, exit, stderrTail } = transport;
  let what: string;
  if (spawnError !== undefined) what = `could not be started (${spawnError.message})`;
  else if (exit?.signal) what = `was ended by ${exit.signal}`;
  else if (exit !== undefined) what = `exited with code ${String(exit.code)}`;
  else
    what =
      error === undefined || isConnectionClosed(error) ? 'closed its connection' : `failed (${describeError(error)})`;
  return stderrTail.length === 0 ? what : `${what}; the last lines of its stderr:\n  ${stderrTail.join('\n  ')}`;
}

function explainHttp(error?: unknown): string {
  if (error === undefined || isConnectionClosed(error)) return 'closed its connection';
  if (error instanceof StreamableHTTPError && error.code !== undefined && error.code > 0) {
    const body = error.message.replace(/\s+/g, ' ').trim().slice(0, HTTP_BODY_CHARS);
    return `answered HTTP ${error.code} (${body})`;
  }
  if (error instanceof TypeError && error.cause !== undefined)
    return `could not be reached (${describeCause(error.cause)})`;
  return `failed (${describeError(error)})`;
}

/** A network error's cause in words: its message, else its code, else the messages of the errors it aggregates. */
function describeCause(cause: unknown): string {
  if (cause instanceof AggregateError && cause.message === '') {
    const parts = cause.errors.map((inner) => describeCause(inner));
    return [...new Set(parts)].join('; ') || describeCode(cause);
  }
  if (cause instanceof Error) return cause.message || describeCode(cause);
  return describeError(cause);
}

function describeCode(error: Error): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : error.name;
}
