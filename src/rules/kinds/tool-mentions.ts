import type { ToolMention } from './rule-kind-module';

/** The mentions of `tools` by one field of a rule. */
export function toolMentions(tools: readonly string[], field: string): ToolMention[] {
  return tools.map((tool) => ({ tool, field }));
}
