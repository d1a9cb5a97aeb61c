import type { Tool as McpToolDescriptor } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { defineTool } from '../define-tool';
import { ToolExecutionError } from '../errors/tool-execution-error';
import { isJsonObject } from '../schema/is-json-object';
import type { AnyTool } from '../tool';
import { DEFAULT_TOOL_TIMEOUT_MS } from '../../kernel';
import type { McpToolCaller } from './mcp-tool-caller';
import { mcpToolName } from './mcp-tool-name';
import { renderMcpContent } from './render-mcp-content';

/** Options of {@link mcpToolToTool}. */
export interface McpToolToToolOptions {
  readonly serverName: string;
  readonly descriptor: McpToolDescriptor;
  readonly callTool: McpToolCaller;
  /** Whether the server's annotations may relax the fail-closed defaults. Default: true. */
  readonly trustAnnotations?: boolean;
  /** Keep the tool out of the catalog until `tool_search` reveals it (unless `_meta['anthropic/alwaysLoad']`). Default: false. */
  readonly defer?: boolean;
  /** Time limit of one call, in milliseconds. Default: 60_000. */
  readonly timeoutMs?: number;
}

/**
 * A toolrail tool that calls an MCP tool. Annotations map fail-closed, keeping the MCP spec defaults:
 * `readOnlyHint: true` → `READ_ONLY`, otherwise `UNSAFE` with permission required; a missing
 * `destructiveHint` means destructive and a missing `openWorldHint` means open world;
 * `idempotentHint` on a non-destructive tool allows retries. With `trustAnnotations: false` nothing
 * is relaxed. The input JSON Schema becomes a zod schema (`z.fromJSONSchema`), so arguments are
 * validated here before the server sees them. `_meta['anthropic/alwaysLoad' | 'anthropic/searchHint'
 * | 'anthropic/maxResultSizeChars']` are honoured. A result with `isError` becomes an `EXECUTION_ERROR`.
 *
 * @throws Error when the input schema cannot be converted or made portable (recursive, conditional…).
 */
export function mcpToolToTool({
  serverName,
  descriptor,
  callTool,
  trustAnnotations = true,
  defer = false,
  timeoutMs = DEFAULT_TOOL_TIMEOUT_MS,
}: McpToolToToolOptions): AnyTool {
  const hints = trustAnnotations ? (descriptor.annotations ?? {}) : {};
  const readOnly = hints.readOnlyHint === true;
  const destructive = !readOnly && hints.destructiveHint !== false;
  const openWorld = hints.openWorldHint !== false;
  const meta = isJsonObject(descriptor._meta) ? descriptor._meta : {};
  const maxResultSizeChars = meta['anthropic/maxResultSizeChars'];
  const searchHint = meta['anthropic/searchHint'];
  const title = descriptor.annotations?.title ?? descriptor.title;
  return defineTool({
    name: mcpToolName(serverName, descriptor.name),
    description:
      descriptor.description?.trim() || title || `The "${descriptor.name}" tool of the ${serverName} MCP server.`,
    inputSchema: z.fromJSONSchema(descriptor.inputSchema as z.core.JSONSchema.JSONSchema),
    concurrency: readOnly ? 'READ_ONLY' : 'UNSAFE',
    isReadOnly: () => readOnly,
    isDestructive: () => destructive,
    isOpenWorld: () => openWorld,
    ...(hints.idempotentHint === true && !destructive ? { retry: { maximumAttempts: 3 } } : {}),
    shouldDefer: defer,
    alwaysLoad: meta['anthropic/alwaysLoad'] === true,
    ...(typeof searchHint === 'string' ? { searchHint } : {}),
    ...(typeof maxResultSizeChars === 'number' && Number.isSafeInteger(maxResultSizeChars) && maxResultSizeChars > 0
      ? { maxResultSizeChars }
      : {}),
    origin: { kind: 'mcp', server: serverName, tool: descriptor.name },
    timeoutMs,
    execute: async (input, context) => {
      const result = await callTool(
        { name: descriptor.name, arguments: isJsonObject(input) ? input : {} },
        { signal: context.signal, timeoutMs, onProgress: (progress) => context.heartbeat(progress) },
      );
      const output = renderMcpContent(result);
      if (result.isError === true) {
        throw new ToolExecutionError({ message: typeof output === 'string' ? output : JSON.stringify(output) });
      }
      return output;
    },
  });
}
