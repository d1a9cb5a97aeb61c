import { createHash } from 'node:crypto';
import type { ToolCatalog } from '../../dispatch';
import { TOOL_SEARCH_NAME } from '../../kernel';
import { isDeferred } from '../is-deferred';
import type { ToolRegistry } from '../tool-registry';
import { toCatalogTool } from './to-catalog-tool';

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
  const revealedTools = [...revealedNames].flatMap((name) => registry.get(name) ?? []);
  const tools = [...loaded, ...revealedTools].map(toCatalogTool);
  const version = createHash('sha256').update(JSON.stringify(tools)).digest('hex').slice(0, 16);
  return {
    version,
    tools,
    hiddenDeferredTools: deferred.filter((tool) => !revealedNames.has(tool.name)).map((tool) => tool.name),
  };
}
