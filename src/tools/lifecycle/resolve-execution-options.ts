import type { ToolExecutionOptions } from '../../dispatch';
import type { AnyTool, ToolCallTraits } from '../tool';
import { AT_MOST_ONCE, DEFAULT_READ_ONLY_RETRY } from '../../dispatch';

/**
 * How one call should run: the tool's time limits, and a retry policy chosen by the call's traits.
 * Destructive calls run at most once whatever the tool declares; otherwise the declared policy wins;
 * without one, read-only calls get {@link DEFAULT_READ_ONLY_RETRY} and others run at most once.
 */
export function resolveExecutionOptions(tool: AnyTool, traits: ToolCallTraits): ToolExecutionOptions {
  const retry = traits.destructive
    ? AT_MOST_ONCE
    : (tool.retry ?? (traits.readOnly ? DEFAULT_READ_ONLY_RETRY : AT_MOST_ONCE));
  const local = tool.localActivity === true && traits.readOnly && !traits.destructive;
  return {
    timeoutMs: tool.timeoutMs,
    heartbeatTimeoutMs: tool.heartbeatTimeoutMs,
    retry: { ...retry },
    ...(local && tool.activity === undefined ? { localActivity: true } : {}),
    ...(tool.activity === undefined ? {} : { activity: { ...tool.activity } }),
  };
}
