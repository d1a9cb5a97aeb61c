import { createHash } from 'node:crypto';
import type { ToolCatalog } from '../../dispatch';
import { TOOL_SEARCH_NAME } from '../../dispatch';
import { isDeferred } from '../is-deferred';
import type { ToolRegistry } from '../tool-registry';
import type { AnyTool } from '../tool';
import { toCatalogTool, unavailableReasonOf } from './to-catalog-tool';

/** Options of {@link buildToolCatalog}. */
export interface BuildToolCatalogOptions {
  readonly registry: ToolRegistry;
  /** Deferred tools `tool_search` revealed so far, in the order they were revealed. Default: none. */
  readonly revealed?: readonly string[];
}

/**
 * The catalog of one turn. Enabled tools that are not deferred come first, sorted by name; revealed
 * deferred tools follow in reveal order, so revealing one never reorders the ones before it (prompt
 * caches keep their prefix). `tool_search` is listed while any enabled tool is deferred. Build it once
 * per turn and keep it for the whole turn; `version` is a hash of the content.
 */
export function buildToolCatalog({ registry, revealed = [] }: BuildToolCatalogOptions): ToolCatalog {
  const enabled = registry.list().filter((tool) => tool.isEnabled());
  const deferred = enabled.filter(isDeferred);
  const loaded = enabled.filter((tool) => !isDeferred(tool) && (tool.name !== TOOL_SEARCH_NAME || deferred.length > 0));
  const revealedNames = new Set<string>();
  for (const name of revealed) {
    const tool = registry.resolve(name)?.tool;
    if (tool !== undefined && deferred.includes(tool)) revealedNames.add(tool.name);
  }
  const listed = [...loaded, ...revealedNames].map((tool) =>
    typeof tool === 'string' ? (registry.get(tool) as AnyTool) : tool,
  );
  const unavailable = listed.map(unavailableReasonOf);
  const hiddenDeferredTools = deferred.filter((tool) => !revealedNames.has(tool.name)).map((tool) => tool.name);
  // The same tools, as available as before, make the same catalog: it is built and hashed once.
  const known = lastBuilt.get(registry);
  if (
    known &&
    sameItems(known.listed, listed) &&
    sameItems(known.unavailable, unavailable) &&
    sameItems(known.catalog.hiddenDeferredTools, hiddenDeferredTools)
  )
    return known.catalog;
  const tools = listed.map((tool, index) => toCatalogTool(tool, unavailable[index]));
  const version = createHash('sha256').update(JSON.stringify(tools)).digest('hex').slice(0, 16);
  const catalog = { version, tools, hiddenDeferredTools };
  lastBuilt.set(registry, { listed, unavailable, catalog });
  return catalog;
}

/** Each registry's latest catalog, with the tools it lists and why each could not run (if it could not). */
const lastBuilt = new WeakMap<
  ToolRegistry,
  { listed: readonly AnyTool[]; unavailable: readonly (string | undefined)[]; catalog: ToolCatalog }
>();

function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}
