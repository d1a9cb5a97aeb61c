import type { AnyTool } from '../tool';

/** Options of {@link searchTools}. */
export interface SearchToolsOptions {
  readonly tools: readonly AnyTool[];
  /** `select:name_a,name_b` for exact names, otherwise keywords. */
  readonly query: string;
  readonly maxResults: number;
}

/**
 * Finds tools for a query. `select:a,b` returns exactly those names (in that order, unknown ones
 * skipped); keywords score name matches 3, search-hint matches 2 and description matches 1 each,
 * best first, ties by name. Deterministic.
 */
export function searchTools({ tools, query, maxResults }: SearchToolsOptions): AnyTool[] {
  const trimmed = query.trim();
  if (trimmed.toLowerCase().startsWith('select:')) {
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    const names = trimmed
      .slice('select:'.length)
      .split(',')
      .map((name) => name.trim());
    return [...new Set(names)].flatMap((name) => byName.get(name) ?? []).slice(0, maxResults);
  }
  const keywords = words(trimmed);
  if (keywords.length === 0) return [];
  return tools
    .map((tool) => ({ tool, score: scoreTool(tool, keywords) }))
    .filter(({ score }) => score > 0)
    .sort((left, right) => right.score - left.score || compareNames(left.tool.name, right.tool.name))
    .slice(0, maxResults)
    .map(({ tool }) => tool);
}

function scoreTool(tool: AnyTool, keywords: readonly string[]): number {
  const name = new Set(words(tool.name));
  const hint = new Set(words(tool.searchHint));
  const description = new Set(words(tool.description));
  return keywords.reduce(
    (score, keyword) =>
      score + (name.has(keyword) ? 3 : 0) + (hint.has(keyword) ? 2 : 0) + (description.has(keyword) ? 1 : 0),
    0,
  );
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

function compareNames(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
