import type { PreparedCall } from '../../src/dispatch/prepared-call';
import { DEFAULT_READ_ONLY_RETRY, DEFAULT_TOOL_TIMEOUT_MS } from '../../src/dispatch/defaults';

/** A call of `read_page` (a read-only tool with no declared policy) as `prepareToolCall` builds it, changed by `overrides`. */
export function readOnlyCall(overrides: Partial<PreparedCall> = {}): PreparedCall {
  return {
    type: 'prepared-call',
    callId: 'call_1_0',
    requestedName: 'read_page',
    toolName: 'read_page',
    args: { page: 1 },
    input: { page: 1 },
    concurrency: 'READ_ONLY',
    concurrencySafe: true,
    readOnly: true,
    destructive: false,
    openWorld: true,
    permission: 'allow',
    permissionMessage: null,
    interruptBehavior: 'block',
    requiresUserInteraction: false,
    execution: { timeoutMs: DEFAULT_TOOL_TIMEOUT_MS, heartbeatTimeoutMs: null, retry: DEFAULT_READ_ONLY_RETRY },
    ...overrides,
  };
}
