/**
 * The MCP bridge: an MCP server's tools as toolrail tools, over stdio or Streamable HTTP, kept in
 * step with the server (tool-list changes, reconnects).
 * @module
 */
export { connectMcpServer } from './connect-mcp-server';
export type { ConnectMcpServerOptions } from './connect-mcp-server';
export { McpServerConnection } from './mcp-server-connection';
export type { McpServerStatus } from './mcp-server-connection';
export type { McpToolList, SkippedMcpTool } from './mcp-tool-list';
export { McpServerError } from './mcp-server-error';
export type { McpServerProblem } from './mcp-server-error';
export type { McpToolCaller } from './mcp-tool-caller';
export { mcpToolName } from './mcp-tool-name';
export type { McpToolOptions } from './mcp-tool-options';
export { mcpToolToTool } from './mcp-tool-to-tool';
export type { McpToolToToolOptions } from './mcp-tool-to-tool';
export type { McpTransportOptions } from './mcp-transport-options';
export { renderMcpContent } from './render-mcp-content';
export { syncMcpTools } from './sync-mcp-tools';
export type { McpToolSync } from './replace-mcp-tools';
