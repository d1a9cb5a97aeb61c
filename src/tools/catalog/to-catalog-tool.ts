import type { CatalogTool } from '../../dispatch';
import { isDeferred } from '../is-deferred';
import type { AnyTool } from '../tool';

/** The catalog entry of a tool: plain JSON, static facts only. */
export function toCatalogTool(tool: AnyTool): CatalogTool {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputJsonSchema,
    strictInputSchema: tool.strictInputJsonSchema,
    aliases: [...tool.aliases],
    flags: {
      concurrency: tool.concurrency,
      requiresPermission: tool.requiresPermission,
      requiresUserInteraction: tool.requiresUserInteraction,
      interruptBehavior: tool.interruptBehavior,
      deferred: isDeferred(tool),
      maxResultSizeChars: Number.isFinite(tool.maxResultSizeChars) ? tool.maxResultSizeChars : null,
      origin: tool.origin.kind,
    },
  };
}
