import type { ToolRegistry } from '../tool-registry';
import type { McpServerConnection } from './mcp-server-connection';
import { replaceMcpTools } from './replace-mcp-tools';
import type { McpToolSync } from './replace-mcp-tools';

/**
 * Replaces a server's tools in the registry with its current list, once. A connection made with
 * `connectMcpServer({ registry })` does this itself whenever the server's tools change or it is
 * reconnected; call this only for a connection made without one, and only between turns (never within
 * one: the turn's catalog is already fixed). A bridged tool whose name the registry refuses is
 * reported as skipped.
 */
export async function syncMcpTools({
  registry,
  connection,
}: {
  registry: ToolRegistry;
  connection: McpServerConnection;
}): Promise<McpToolSync> {
  const { tools, skipped } = await connection.listTools();
  const sync = replaceMcpTools(registry, connection.name, tools);
  return { ...sync, skipped: [...skipped, ...sync.skipped] };
}
