import type { CatalogTool } from '../../dispatch';
import { describeError } from '../describe-error';
import { isDeferred } from '../is-deferred';
import type { AnyTool } from '../tool';

/**
 * The catalog entry of a tool: plain JSON, static facts, and whether it can run this turn (a tool
 * that cannot says why, in `unavailable` and at the start of its description; `unavailable` is
 * asked of the tool when not given).
 */
export function toCatalogTool(tool: AnyTool, unavailable = unavailableReasonOf(tool)): CatalogTool {
  return {
    name: tool.name,
    description:
      unavailable === undefined ? tool.description : `[Unavailable now: ${unavailable}]\n\n${tool.description}`,
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
    ...(unavailable === undefined ? {} : { unavailable }),
  };
}

/** Why a tool cannot run now, or `undefined`; a check that throws counts as its own reason. */
export function unavailableReasonOf(tool: AnyTool): string | undefined {
  try {
    return tool.unavailableReason?.();
  } catch (error) {
    return `its availability could not be checked: ${describeError(error)}`;
  }
}
