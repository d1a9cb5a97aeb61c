import { ActivityFailure, ApplicationFailure, CancelledFailure, RetryState, TimeoutFailure } from '@temporalio/common';
import type { TimeoutType } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { isRecordedCall, mayHaveLostCompletion } from '../../../src/dispatch/lost-completion';
import { outcomeFromActivityFailure } from '../../../src/dispatch/outcome-from-activity-failure';
import type { PreparedCall } from '../../../src/dispatch/prepared-call';
import { AT_MOST_ONCE, DEFAULT_READ_ONLY_RETRY, DEFAULT_TOOL_TIMEOUT_MS } from '../../../src/dispatch/defaults';

/** A call as `prepareToolCall` builds it: destructive and run once unless `overrides` say otherwise. */
function call(overrides: Partial<PreparedCall> = {}): PreparedCall {
  return {
    type: 'prepared-call',
    callId: 'c1',
    requestedName: 'apply_change',
    toolName: 'apply_change',
    args: {},
    input: {},
    concurrency: 'UNSAFE',
    concurrencySafe: false,
    readOnly: false,
    destructive: true,
    openWorld: true,
    permission: 'allow',
    permissionMessage: null,
    interruptBehavior: 'block',
    requiresUserInteraction: false,
    execution: { timeoutMs: DEFAULT_TOOL_TIMEOUT_MS, heartbeatTimeoutMs: null, retry: AT_MOST_ONCE },
    ...overrides,
  };
}

/** How the workflow sees a tool activity that timed out. */
function timedOut(timeoutType: TimeoutType): ActivityFailure {
  const cause = new TimeoutFailure(undefined, undefined, timeoutType);
  return new ActivityFailure(
    'activity timed out',
    'executeTool',
    '1',
    RetryState.MAXIMUM_ATTEMPTS_REACHED,
    undefined,
    cause,
  );
}

const readCall = call({
  readOnly: true,
  destructive: false,
  concurrency: 'READ_ONLY',
  execution: { timeoutMs: DEFAULT_TOOL_TIMEOUT_MS, heartbeatTimeoutMs: null, retry: DEFAULT_READ_ONLY_RETRY },
});
const writeCall = call({ destructive: false, concurrency: 'WRITE_EXCLUSIVE' });

describe('mayHaveLostCompletion', () => {
  it('holds for a call run once that timed out after it started', () => {
    expect(mayHaveLostCompletion(call(), timedOut('HEARTBEAT'))).toBe(true);
    expect(mayHaveLostCompletion(call(), timedOut('START_TO_CLOSE'))).toBe(true);
    expect(mayHaveLostCompletion(writeCall, timedOut('HEARTBEAT'))).toBe(true);
  });

  it('does not hold for a call that never started, nor for other failures', () => {
    expect(mayHaveLostCompletion(call(), timedOut('SCHEDULE_TO_START'))).toBe(false);
    const cancelled = new ActivityFailure(
      'x',
      'executeTool',
      '1',
      RetryState.CANCEL_REQUESTED,
      undefined,
      new CancelledFailure('cancelled'),
    );
    expect(mayHaveLostCompletion(call(), cancelled)).toBe(false);
    expect(mayHaveLostCompletion(call(), ApplicationFailure.nonRetryable('boom'))).toBe(false);
  });

  it('does not hold for retried calls or local activities, which keep no record', () => {
    expect(mayHaveLostCompletion(readCall, timedOut('HEARTBEAT'))).toBe(false);
    const local = call({
      ...readCall,
      execution: {
        timeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
        heartbeatTimeoutMs: null,
        retry: AT_MOST_ONCE,
        localActivity: true,
      },
    });
    expect(isRecordedCall(local)).toBe(false);
    expect(isRecordedCall(readCall)).toBe(false);
    expect(isRecordedCall(call())).toBe(true);
    expect(isRecordedCall(writeCall)).toBe(true);
  });
});

describe('outcomeFromActivityFailure for a timeout', () => {
  it('says a call whose record was not found may or may not have taken effect', () => {
    const outcome = outcomeFromActivityFailure(writeCall, timedOut('HEARTBEAT'), undefined, 'not-found');
    expect(outcome).toMatchObject({ code: 'TIMEOUT', callId: 'c1' });
    expect(outcome.message).toBe(
      'apply_change did not finish in time (HEARTBEAT). It may or may not have taken effect: it is not retried automatically, and no record of its completion was found (it may still be running, or have stopped before it finished).',
    );
  });

  it('says so too when the record could not be read', () => {
    const outcome = outcomeFromActivityFailure(call(), timedOut('START_TO_CLOSE'), undefined, 'failed');
    expect(outcome.message).toContain('It may or may not have taken effect');
    expect(outcome.message).toContain('its record of completion could not be read from the content store');
  });

  it('keeps its message for calls that were never looked up', () => {
    expect(outcomeFromActivityFailure(call(), timedOut('HEARTBEAT'), undefined).message).toBe(
      'apply_change did not finish in time (HEARTBEAT). It may or may not have taken effect: it is not retried automatically.',
    );
    expect(outcomeFromActivityFailure(readCall, timedOut('HEARTBEAT'), undefined).message).toBe(
      'apply_change did not finish in time (HEARTBEAT).',
    );
  });
});
