import { z } from 'zod';
import { TOOL_SEARCH_NAME } from '../../dispatch';
import { defineTool } from '../define-tool';
import type { AnyTool } from '../tool';
import { searchTools } from './search-tools';

/** Most tools one `tool_search` call may reveal. */
export const MAX_TOOL_SEARCH_RESULTS = 20;

/**
 * The built-in `tool_search` tool: finds deferred tools by keywords or `select:` and returns their
 * names, descriptions and input schemas. The names are listed in `revealed`; the next turn's catalog
 * includes them (a catalog never changes within a turn). Read-only, always loaded, never offloaded.
 */
export function createToolSearchTool({ listSearchable }: { listSearchable: () => readonly AnyTool[] }) {
  return defineTool({
    name: TOOL_SEARCH_NAME,
    description: [
      'Find and load tools that are not in your tool list yet.',
      'Query with keywords ("calendar invite") or with "select:name_a,name_b" for exact names.',
      'Loaded tools become callable on your next turn.',
    ].join(' '),
    inputSchema: z.object({
      query: z.string().min(1).max(500).describe('Keywords, or "select:" followed by comma-separated tool names.'),
      maxResults: z
        .number()
        .int()
        .min(1)
        .max(MAX_TOOL_SEARCH_RESULTS)
        .optional()
        .describe(`How many tools to return at most (default 5, at most ${MAX_TOOL_SEARCH_RESULTS}).`),
    }),
    concurrency: 'READ_ONLY',
    isOpenWorld: () => false,
    alwaysLoad: true,
    maxResultSizeChars: Infinity,
    execute: ({ query, maxResults }) => {
      const matches = searchTools({ tools: listSearchable(), query, maxResults: maxResults ?? 5 });
      return {
        matches: matches.map((tool) => ({
          name: tool.name,
          description: tool.description,
          inputSchema: tool.inputJsonSchema,
        })),
        revealed: matches.map((tool) => tool.name),
      };
    },
  });
}
