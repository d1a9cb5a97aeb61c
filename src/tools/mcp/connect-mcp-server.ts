import type { InterruptBehavior } from '../../dispatch';
import { nearestName } from '../../text';
import type { ToolRegistry } from '../tool-registry';
import { mcpEndpoint } from './mcp-endpoint';
import { McpServerConnection } from './mcp-server-connection';
import { McpServerError } from './mcp-server-error';
import type { McpToolOptions } from './mcp-tool-options';
import { mcpToolOptionKeys } from './mcp-tool-options';
import type { McpTransportOptions } from './mcp-transport-options';

/** Options of {@link connectMcpServer}. */
export interface ConnectMcpServerOptions {
  /** Short name of the server; part of every tool name (`mcp__<name>__<tool>`). */
  readonly name: string;
  readonly transport: McpTransportOptions;
  /**
   * The registry the server's tools join. From then on they follow the server: a tool list it
   * announces changed is in the next turn's catalog, and while it is down (and being reconnected)
   * its tools are unavailable, with the reason. Without one, call `syncMcpTools` yourself.
   */
  readonly registry?: ToolRegistry;
  /** Whether the server's annotations may relax the fail-closed defaults. Default: true. */
  readonly trustAnnotations?: boolean;
  /** Defer all of its tools behind `tool_search`. Default: false. */
  readonly deferTools?: boolean;
  /** Time limit of each tool call, in milliseconds. Default: 60_000. */
  readonly toolTimeoutMs?: number;
  /**
   * What a user interrupt does to a running call of any of its tools (see {@link McpToolOptions}).
   * Default: `cancel` for read-only tools, `block` for the others.
   */
  readonly interruptBehavior?: InterruptBehavior;
  /**
   * Whether calls of any of its tools wait for a human's approval (see {@link McpToolOptions}).
   * Default: `false` for read-only tools, `true` for the others.
   */
  readonly requiresPermission?: boolean;
  /**
   * Settings of single tools, keyed by the server's own tool name; they override the server-wide
   * ones. A name the server does not list is refused when it connects.
   */
  readonly tools?: Readonly<Record<string, McpToolOptions>>;
  /** How long the server may take to start and answer the MCP initialization, in milliseconds. Default: 60_000. */
  readonly connectTimeoutMs?: number;
  /**
   * Delays between reconnect attempts once the server is lost, in milliseconds: the first one, then
   * doubling up to the longest. Defaults: 500 and 30_000.
   */
  readonly reconnect?: { readonly initialDelayMs?: number; readonly maxDelayMs?: number };
}

/** Every key of {@link ConnectMcpServerOptions}; the compiler keeps this list complete. */
const optionKeys = Object.keys({
  name: true,
  transport: true,
  registry: true,
  trustAnnotations: true,
  deferTools: true,
  toolTimeoutMs: true,
  interruptBehavior: true,
  requiresPermission: true,
  tools: true,
  connectTimeoutMs: true,
  reconnect: true,
} satisfies Record<keyof ConnectMcpServerOptions, true>);

/**
 * Connects to an MCP server with the official SDK client (stdio or Streamable HTTP), lists its tools
 * and, with a `registry`, registers them there and keeps them in step with the server (tool-list
 * changes, reconnects). Close it when done.
 *
 * @throws McpServerError `MCP_OPTIONS_INVALID` for options that cannot work (unknown keys, with a
 * suggestion; a `tools` entry for a tool the server does not list), `MCP_CONNECTION_FAILED` when the
 * server cannot be reached: the message names the server and why (a command that does not start, a
 * process's exit status and last stderr lines, an endpoint's HTTP status or network error).
 */
export async function connectMcpServer(options: ConnectMcpServerOptions): Promise<McpServerConnection> {
  checkOptions(options);
  const { name, registry, tools = {}, reconnect = {} } = options;
  if (registry?.list().some((tool) => tool.origin.kind === 'mcp' && tool.origin.server === name)) {
    refuse(
      name,
      `the registry holds the tools of another MCP server named "${name}" already; give each server its own name`,
    );
  }
  const connection = await McpServerConnection.open({
    name,
    endpoint: mcpEndpoint(options.transport),
    registry,
    trustAnnotations: options.trustAnnotations ?? true,
    deferTools: options.deferTools ?? false,
    toolTimeoutMs: options.toolTimeoutMs,
    interruptBehavior: options.interruptBehavior,
    requiresPermission: options.requiresPermission,
    tools,
    connectTimeoutMs: options.connectTimeoutMs ?? 60_000,
    reconnectInitialDelayMs: reconnect.initialDelayMs ?? 500,
    reconnectMaxDelayMs: reconnect.maxDelayMs ?? 30_000,
  });
  const listed = [
    ...connection.tools.map((tool) => (tool.origin.kind === 'mcp' ? tool.origin.tool : tool.name)),
    ...connection.skipped.map((tool) => tool.name),
  ];
  const unmatched = Object.keys(tools).filter((tool) => !listed.includes(tool));
  if (unmatched.length > 0) {
    await connection.close();
    const [first = ''] = unmatched;
    refuse(
      name,
      `"tools" names ${unmatched.map((tool) => `"${tool}"`).join(', ')}, which the server does not list (did you mean "${nearestName(first, listed)}"?)`,
    );
  }
  return connection;
}

/** Refuses options that cannot work, naming the first problem. */
function checkOptions(options: ConnectMcpServerOptions): void {
  const server = typeof options.name === 'string' ? options.name : String(options.name);
  const fail = (problem: string): never => refuse(server, problem);
  for (const key of Object.keys(options)) {
    if (!optionKeys.includes(key)) fail(`unknown option "${key}" (did you mean "${nearestName(key, optionKeys)}"?)`);
  }
  if (typeof options.name !== 'string' || options.name.trim() === '') fail('the name must be a non-empty string');
  const type = (options.transport as { type?: unknown } | undefined)?.type;
  if (type !== 'stdio' && type !== 'streamable-http') fail('transport.type must be "stdio" or "streamable-http"');
  checkInterruptBehavior(options.interruptBehavior, 'interruptBehavior', fail);
  checkBoolean(options.requiresPermission, 'requiresPermission', fail);
  checkPositiveInteger(options.toolTimeoutMs, 'toolTimeoutMs', fail);
  checkPositiveInteger(options.connectTimeoutMs, 'connectTimeoutMs', fail);
  for (const key of Object.keys(options.reconnect ?? {})) {
    if (key !== 'initialDelayMs' && key !== 'maxDelayMs') {
      fail(
        `unknown option "reconnect.${key}" (did you mean "reconnect.${nearestName(key, ['initialDelayMs', 'maxDelayMs'])}"?)`,
      );
    }
  }
  checkPositiveInteger(options.reconnect?.initialDelayMs, 'reconnect.initialDelayMs', fail);
  checkPositiveInteger(options.reconnect?.maxDelayMs, 'reconnect.maxDelayMs', fail);
  for (const [tool, settings] of Object.entries(options.tools ?? {})) {
    for (const key of Object.keys(settings)) {
      if (!mcpToolOptionKeys.includes(key)) {
        fail(`unknown option "tools.${tool}.${key}" (did you mean "${nearestName(key, mcpToolOptionKeys)}"?)`);
      }
    }
    checkInterruptBehavior(settings.interruptBehavior, `tools.${tool}.interruptBehavior`, fail);
    checkBoolean(settings.requiresPermission, `tools.${tool}.requiresPermission`, fail);
    checkPositiveInteger(settings.timeoutMs, `tools.${tool}.timeoutMs`, fail);
  }
}

function checkInterruptBehavior(value: unknown, at: string, fail: (problem: string) => never): void {
  if (value !== undefined && value !== 'cancel' && value !== 'block') fail(`${at} must be "cancel" or "block"`);
}

function checkBoolean(value: unknown, at: string, fail: (problem: string) => never): void {
  if (value !== undefined && typeof value !== 'boolean') fail(`${at} must be true or false`);
}

function checkPositiveInteger(value: unknown, at: string, fail: (problem: string) => never): void {
  if (value !== undefined && !(Number.isSafeInteger(value) && (value as number) > 0)) {
    fail(`${at} must be a positive integer (milliseconds)`);
  }
}

function refuse(server: string, problem: string): never {
  throw new McpServerError({
    code: 'MCP_OPTIONS_INVALID',
    server,
    detail: problem,
    message: `The MCP server "${server}" cannot be connected: ${problem}`,
  });
}
