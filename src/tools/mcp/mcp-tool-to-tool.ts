import type { Tool as McpToolDescriptor } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { InterruptBehavior } from '../../dispatch';
import { defineTool } from '../define-tool';
import { ToolExecutionError } from '../errors/tool-execution-error';
import { closeObjectSchemas } from '../schema/close-object-schemas';
import { isJsonObject } from '../schema/is-json-object';
import type { AnyTool } from '../tool';
import { DEFAULT_TOOL_TIMEOUT_MS } from '../../dispatch';
import type { JsonObject } from '../../dispatch';
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
  /**
   * Keep the tool out of the catalog until `tool_search` reveals it (unless
   * `_meta['anthropic/alwaysLoad']`). Default: false.
   */
  readonly defer?: boolean;
  /** Time limit of one call, in milliseconds. Default: 60_000. */
  readonly timeoutMs?: number;
  /** What a user interrupt does to a running call. Default: `cancel` when the tool is read-only, else `block`. */
  readonly interruptBehavior?: InterruptBehavior;
  /** Whether a call waits for a human's approval. Default: `false` when the tool is read-only, else `true`. */
  readonly requiresPermission?: boolean;
  /** Why the tool cannot run now (its server is down), or `undefined` when it can. Default: always available. */
  readonly unavailableReason?: () => string | undefined;
}

/**
 * A toolrail tool that calls an MCP tool. Annotations map fail-closed, keeping the MCP spec defaults:
 * `readOnlyHint: true` → `READ_ONLY` (concurrent, no permission, interrupts cancel it), otherwise
 * `UNSAFE` with permission required and interrupts waiting for it; a missing `destructiveHint` means
 * destructive and a missing `openWorldHint` means open world; `idempotentHint` on a non-destructive
 * tool allows retries. With `trustAnnotations: false` nothing is relaxed. The input JSON Schema is
 * taken as strictly as the server declares it: objects that list their properties refuse others
 * unless the schema allows them (see `closeObjectSchemas`); it becomes a zod schema
 * (`z.fromJSONSchema`), so arguments are validated here before the server sees them.
 * `_meta['anthropic/alwaysLoad' | 'anthropic/searchHint' | 'anthropic/maxResultSizeChars']` are
 * honoured. A result with `isError` becomes an `EXECUTION_ERROR`.
 *
 * @throws Error when the tool needs MCP task-based execution, or when its input schema cannot be
 * converted or made portable (recursive, conditional…).
 */
export function mcpToolToTool({
  serverName,
  descriptor,
  callTool,
  trustAnnotations = true,
  defer = false,
  timeoutMs = DEFAULT_TOOL_TIMEOUT_MS,
  interruptBehavior,
  requiresPermission,
  unavailableReason,
}: McpToolToToolOptions): AnyTool {
  if (descriptor.execution?.taskSupport === 'required') {
    throw new Error('it runs only as an MCP task (execution.taskSupport: "required"), which toolrail does not support');
  }
  const hints = trustAnnotations ? (descriptor.annotations ?? {}) : {};
  const readOnly = hints.readOnlyHint === true;
  const destructive = !readOnly && hints.destructiveHint !== false;
  const openWorld = hints.openWorldHint !== false;
  const meta = isJsonObject(descriptor._meta) ? descriptor._meta : {};
  const maxResultSizeChars = meta['anthropic/maxResultSizeChars'];
  const searchHint = meta['anthropic/searchHint'];
  const title = descriptor.annotations?.title ?? descriptor.title;
  const inputSchema = closeObjectSchemas(descriptor.inputSchema as JsonObject);
  const tool = defineTool({
    name: mcpToolName(serverName, descriptor.name),
    description:
      descriptor.description?.trim() || title || `The "${descriptor.name}" tool of the ${serverName} MCP server.`,
    inputSchema: z.fromJSONSchema(inputSchema as z.core.JSONSchema.JSONSchema),
    concurrency: readOnly ? 'READ_ONLY' : 'UNSAFE',
    isReadOnly: () => readOnly,
    isDestructive: () => destructive,
    isOpenWorld: () => openWorld,
    requiresPermission: requiresPermission ?? !readOnly,
    interruptBehavior: interruptBehavior ?? (readOnly ? 'cancel' : 'block'),
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
  return unavailableReason === undefined ? tool : Object.freeze({ ...tool, unavailableReason });
}
