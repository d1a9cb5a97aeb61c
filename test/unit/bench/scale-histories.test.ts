import { describe, expect, it } from 'vitest';
import { temporal } from '@temporalio/proto';
import { timeoutKind } from '../../../bench/scale/scale-histories';

const { TimeoutType } = temporal.api.enums.v1;

describe('the scale benchmark reading a workflow-task timeout', () => {
  it('names its timeout type and the queue of the task that timed out', () => {
    const queues = new Map([
      ['7', 'sticky'],
      ['12', 'normal'],
    ]);
    const timedOut = (timeoutType: number, scheduledEventId: number) =>
      temporal.api.history.v1.HistoryEvent.fromObject({
        workflowTaskTimedOutEventAttributes: { timeoutType, scheduledEventId },
      });
    expect(timeoutKind(timedOut(TimeoutType.TIMEOUT_TYPE_START_TO_CLOSE, 7), queues)).toBe(
      'start-to-close on the sticky queue',
    );
    expect(timeoutKind(timedOut(TimeoutType.TIMEOUT_TYPE_SCHEDULE_TO_START, 12), queues)).toBe(
      'schedule-to-start on the normal queue',
    );
    expect(timeoutKind(timedOut(TimeoutType.TIMEOUT_TYPE_SCHEDULE_TO_START, 99), queues)).toBe(
      'schedule-to-start on the unknown queue',
    );
  });
});
