import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';

/**
 * A model call's options offering only `offered` tools (all, when `undefined`: no step narrowed
 * yet); with none left, the call has no tools and no tool choice.
 */
export function offerTools(
  params: LanguageModelV4CallOptions,
  offered: ReadonlySet<string> | undefined,
): LanguageModelV4CallOptions {
  if (offered === undefined || params.tools === undefined) return params;
  const tools = params.tools.filter((tool) => offered.has(tool.name));
  if (tools.length > 0) return { ...params, tools };
  const { tools: _tools, toolChoice: _toolChoice, ...rest } = params;
  return rest;
}
