import { describe, expect, it } from 'vitest';
import type { PreparedCall } from '../../../src/dispatch/prepared-call';
import { readRevealedTools } from '../../../src/dispatch/read-revealed-tools';
import { refusePreparedCall } from '../../../src/dispatch/refuse-prepared-call';
import { shouldRetryToolOutcome } from '../../../src/dispatch/should-retry-tool-outcome';
import type { ToolOutcome } from '../../../src/dispatch/tool-outcome';
import { AT_MOST_ONCE, DEFAULT_READ_ONLY_RETRY, DEFAULT_TOOL_TIMEOUT_MS } from '../../../src/dispatch/defaults';

/** A destructive call that asks first: as `prepareToolCall` builds it, it runs at most once. */
const deleteCall: PreparedCall = {
  type: 'prepared-call',
  callId: 'c1',
  requestedName: 'delete_file',
  toolName: 'delete_file',
  args: { path: 'a.txt' },
  input: { path: 'a.txt' },
  concurrency: 'WRITE_EXCLUSIVE',
  concurrencySafe: false,
  readOnly: false,
  destructive: true,
  openWorld: false,
  permission: 'ask',
  permissionMessage: 'Deleting a.txt cannot be undone.',
  interruptBehavior: 'cancel',
  requiresUserInteraction: false,
  execution: { timeoutMs: DEFAULT_TOOL_TIMEOUT_MS, heartbeatTimeoutMs: null, retry: AT_MOST_ONCE },
};

/** A read-only call of a tool that declares no retry policy: it gets the default read-only retries. */
const readCall: PreparedCall = {
  type: 'prepared-call',
  callId: 'c2',
  requestedName: 'read_file',
  toolName: 'read_file',
  args: { path: 'a.txt' },
  input: { path: 'a.txt' },
  concurrency: 'READ_ONLY',
  concurrencySafe: true,
  readOnly: true,
  destructive: false,
  openWorld: false,
  permission: 'allow',
  permissionMessage: null,
  interruptBehavior: 'cancel',
  requiresUserInteraction: false,
  execution: { timeoutMs: DEFAULT_TOOL_TIMEOUT_MS, heartbeatTimeoutMs: null, retry: DEFAULT_READ_ONLY_RETRY },
};

describe('readRevealedTools', () => {
  it('reads the revealed names of a tool_search result', () => {
    const outcome: ToolOutcome = {
      type: 'tool-result',
      callId: 'c1',
      toolName: 'tool_search',
      output: { matches: [], revealed: ['calendar_invite', 7, 'mail_send'] },
    };
    expect(readRevealedTools(outcome)).toEqual(['calendar_invite', 'mail_send']);
  });

  it('reveals nothing for another tool that returns the same shape', () => {
    const outcome: ToolOutcome = {
      type: 'tool-result',
      callId: 'c1',
      toolName: 'evil',
      output: { revealed: ['shell'] },
    };
    expect(readRevealedTools(outcome)).toEqual([]);
  });

  it('reveals nothing for a failed search', () => {
    const outcome: ToolOutcome = {
      type: 'tool-error',
      callId: 'c1',
      toolName: 'tool_search',
      code: 'TIMEOUT',
      message: 'slow',
    };
    expect(readRevealedTools(outcome)).toEqual([]);
  });
});

describe('shouldRetryToolOutcome', () => {
  const failure: ToolOutcome = {
    type: 'tool-error',
    callId: 'c1',
    toolName: 'x',
    code: 'EXECUTION_ERROR',
    message: 'boom',
    retryable: true,
  };

  it('retries a retryable failure while attempts remain', () => {
    expect(DEFAULT_READ_ONLY_RETRY.maximumAttempts).toBe(3);
    expect(shouldRetryToolOutcome({ outcome: failure, prepared: readCall, attempt: 2 })).toBe(true);
  });

  it('reports the failure on the last attempt', () => {
    expect(shouldRetryToolOutcome({ outcome: failure, prepared: readCall, attempt: 3 })).toBe(false);
  });

  it('never retries a destructive call, even after a retryable failure', () => {
    expect(shouldRetryToolOutcome({ outcome: failure, prepared: deleteCall, attempt: 1 })).toBe(false);
  });

  it('never retries a failure that is not marked retryable', () => {
    expect(shouldRetryToolOutcome({ outcome: { ...failure, retryable: false }, prepared: readCall, attempt: 1 })).toBe(
      false,
    );
  });
});

describe('refusePreparedCall', () => {
  it('gives each refusal its own code', () => {
    const codes = [
      refusePreparedCall(deleteCall, { reason: 'permission-denied' }),
      refusePreparedCall(deleteCall, { reason: 'approval-denied' }),
      refusePreparedCall(deleteCall, { reason: 'approval-timeout' }),
      refusePreparedCall(deleteCall, { reason: 'rule-blocked', message: 'Call read_file first.' }),
      refusePreparedCall(deleteCall, { reason: 'interrupted' }),
    ].map((outcome) => outcome.code);
    expect(codes).toEqual(['PERMISSION_DENIED', 'APPROVAL_DENIED', 'APPROVAL_TIMEOUT', 'RULE_BLOCKED', 'INTERRUPTED']);
  });

  it('uses the permission message for a denial', () => {
    expect(refusePreparedCall(deleteCall, { reason: 'permission-denied' }).message).toBe(
      'Deleting a.txt cannot be undone.',
    );
  });
});
