import { TOOL_SEARCH_NAME } from './tool-search-name';
import type { ToolOutcome } from './tool-outcome';

/**
 * Names of the deferred tools a `tool_search` result revealed (its `revealed` list); empty for any
 * other outcome. The workflow adds them to the revealed set it passes to the next turn's catalog.
 */
export function readRevealedTools(outcome: ToolOutcome): string[] {
  if (outcome.type !== 'tool-result' || outcome.toolName !== TOOL_SEARCH_NAME) return [];
  const output = outcome.output;
  if (typeof output !== 'object' || output === null || Array.isArray(output)) return [];
  const revealed = output['revealed'];
  if (!Array.isArray(revealed)) return [];
  return revealed.filter((name): name is string => typeof name === 'string');
}
