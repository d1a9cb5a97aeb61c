import { describeError } from '../describe-error';
import type { ToolRegistry } from '../tool-registry';
import type { McpServerConnection, SkippedMcpTool } from './mcp-server-connection';

/** What a sync changed in the registry. */
export interface McpToolSync {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly skipped: readonly SkippedMcpTool[];
}

/**
 * Replaces a server's tools in the registry with its current list. Call it between turns (never within
 * one: the turn's catalog is already fixed), e.g. when `connection.toolListChanged`. A bridged tool
 * whose name the registry refuses is reported as skipped.
 */
export async function syncMcpTools({
  registry,
  connection,
}: {
  registry: ToolRegistry;
  connection: McpServerConnection;
}): Promise<McpToolSync> {
  const { tools, skipped } = await connection.listTools();
  const previous = registry
    .list()
    .filter((tool) => tool.origin.kind === 'mcp' && tool.origin.server === connection.name)
    .map((tool) => tool.name);
  for (const name of previous) registry.unregister(name);
  const added: string[] = [];
  const refused: SkippedMcpTool[] = [];
  for (const tool of tools) {
    try {
      registry.register(tool);
      added.push(tool.name);
    } catch (error) {
      refused.push({ name: tool.origin.kind === 'mcp' ? tool.origin.tool : tool.name, reason: describeError(error) });
    }
  }
  return {
    added: added.filter((name) => !previous.includes(name)),
    removed: previous.filter((name) => !added.includes(name)),
    skipped: [...skipped, ...refused],
  };
}
