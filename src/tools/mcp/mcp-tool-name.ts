import { createHash } from 'node:crypto';

/**
 * The toolrail name of an MCP tool: `mcp__<server>__<tool>`, with characters models refuse replaced by
 * `_`. A name longer than 64 characters is cut and suffixed with a hash of the full one, so distinct
 * tools keep distinct names.
 */
export function mcpToolName(serverName: string, toolName: string): string {
  const clean = (text: string) => text.replace(/[^a-zA-Z0-9_-]/g, '_');
  const full = `mcp__${clean(serverName)}__${clean(toolName)}`;
  if (full.length <= 64 && full === `mcp__${serverName}__${toolName}`) return full;
  const hash = createHash('sha256').update(`${serverName}\u0000${toolName}`).digest('hex').slice(0, 8);
  return `${full.slice(0, 64 - hash.length - 1)}_${hash}`;
}
