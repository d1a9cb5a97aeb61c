import { describeError } from '../describe-error';
import type { AnyTool } from '../tool';
import type { ToolRegistry } from '../tool-registry';
import type { SkippedMcpTool } from './mcp-tool-list';

/** What a sync changed in the registry. */
export interface McpToolSync {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly skipped: readonly SkippedMcpTool[];
}

/** Unregisters the tools of `server` and registers `tools` in their place; what the registry refuses is reported. */
export function replaceMcpTools(registry: ToolRegistry, server: string, tools: readonly AnyTool[]): McpToolSync {
  const previous = registry
    .list()
    .filter((tool) => tool.origin.kind === 'mcp' && tool.origin.server === server)
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
    skipped: refused,
  };
}
