import type { JsonObject } from './json-value';
import type { ConcurrencyClass, InterruptBehavior } from './prepared-call';

/** Static facts about a catalog tool; per-call facts (read-only, destructive…) are in `PreparedCall`. */
export interface CatalogToolFlags {
  /** Declared concurrency class (`UNSAFE` when none was declared). */
  readonly concurrency: ConcurrencyClass;
  readonly requiresPermission: boolean;
  readonly requiresUserInteraction: boolean;
  readonly interruptBehavior: InterruptBehavior;
  /** Whether the tool is deferred (it is in `tools` only because `tool_search` revealed it). */
  readonly deferred: boolean;
  /** Results longer than this many characters are offloaded; `null` means never. */
  readonly maxResultSizeChars: number | null;
  /** `mcp` for tools bridged from an MCP server. */
  readonly origin: 'local' | 'mcp';
}

/** One tool as the workflow and the model adapters see it. Plain JSON. */
export interface CatalogTool {
  readonly name: string;
  readonly description: string;
  /** Portable JSON Schema of the input: a `type: 'object'` root, no `$ref`/`$defs`, no root composition. */
  readonly inputSchema: JsonObject;
  /**
   * The same schema for OpenAI strict mode (every property required, optional ones nullable, no extra
   * properties anywhere), or `null` when it cannot be expressed strictly (records, for instance).
   */
  readonly strictInputSchema: JsonObject | null;
  /** Old names the tool still answers to; not for the model. */
  readonly aliases: readonly string[];
  readonly flags: CatalogToolFlags;
  /**
   * Why the tool cannot run this turn (its MCP server is down), when it cannot; its `description`
   * then starts with the same reason, so the model reads it too. Absent when the tool can run.
   */
  readonly unavailable?: string;
}

/**
 * The tools of one turn, in the stable order they are sent to the model. Fixed for the turn; the next
 * turn may get another one. `version` changes exactly when the content does.
 */
export interface ToolCatalog {
  /** Content hash (hex) of `tools`. */
  readonly version: string;
  readonly tools: readonly CatalogTool[];
  /** Names of deferred tools that are registered and enabled but not revealed yet, sorted. */
  readonly hiddenDeferredTools: readonly string[];
}

/**
 * A catalog as a session's workflow holds it: each tool's name, and why it cannot run now when it
 * cannot. The rules and the views need no more; the model call builds the rest from the worker's
 * registry by the catalog's `version`. A fraction of the catalog's size in history and in memory.
 */
export interface HeldToolCatalog {
  readonly version: string;
  readonly tools: readonly Pick<CatalogTool, 'name' | 'unavailable'>[];
  readonly hiddenDeferredTools: readonly string[];
}

/** What a session's workflow holds of `catalog` (see {@link HeldToolCatalog}); its other fields as they are. */
export function heldCatalog<T extends HeldToolCatalog>(catalog: T): Omit<T, 'tools'> & HeldToolCatalog {
  const tools = catalog.tools.map(({ name, unavailable }) =>
    unavailable === undefined ? { name } : { name, unavailable },
  );
  return { ...catalog, tools };
}
