import type { AnyTool } from './tool';

/** Whether a tool stays out of the catalog until `tool_search` reveals it (`shouldDefer` and not `alwaysLoad`). */
export function isDeferred(tool: AnyTool): boolean {
  return tool.shouldDefer && !tool.alwaysLoad;
}
