import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { describe, expect, it } from 'vitest';
import { bundleSessionWorkflows } from '../../src/worker/bundle-session-workflows';
import { historyFromJsonValue } from '../helpers/history-json';
import type { JsonHistory } from '../helpers/run-chain';
import { eventTypeNames } from '../helpers/run-chain';

const historiesDirectory = path.resolve(__dirname, 'histories');
const alteredWorkflowsPath = path.resolve(__dirname, '../fixtures/altered-workflows/index.ts');

/** What each scenario's recorded history must show to stay representative (`record-histories.ts` writes them). */
const scenarioShapes: Record<string, { includes: string[]; endsWith: string }> = {
  'ticket-flow': {
    includes: ['MARKER_RECORDED', 'ACTIVITY_TASK_COMPLETED', 'UPSERT_WORKFLOW_SEARCH_ATTRIBUTES'],
    endsWith: 'WORKFLOW_EXECUTION_COMPLETED',
  },
  'parallel-batch': { includes: ['ACTIVITY_TASK_SCHEDULED'], endsWith: 'WORKFLOW_EXECUTION_COMPLETED' },
  interrupt: {
    includes: ['WORKFLOW_EXECUTION_SIGNALED', 'ACTIVITY_TASK_CANCEL_REQUESTED', 'ACTIVITY_TASK_CANCELED'],
    endsWith: 'WORKFLOW_EXECUTION_COMPLETED',
  },
  approval: {
    includes: ['WORKFLOW_EXECUTION_UPDATE_ACCEPTED', 'WORKFLOW_EXECUTION_UPDATE_COMPLETED', 'TIMER_CANCELED'],
    endsWith: 'WORKFLOW_EXECUTION_COMPLETED',
  },
  'other-clients': {
    includes: ['MARKER_RECORDED', 'WORKFLOW_EXECUTION_SIGNALED', 'WORKFLOW_EXECUTION_UPDATE_ACCEPTED'],
    endsWith: 'WORKFLOW_EXECUTION_COMPLETED',
  },
  'local-activity-tools': {
    includes: ['MARKER_RECORDED', 'ACTIVITY_TASK_COMPLETED'],
    endsWith: 'WORKFLOW_EXECUTION_COMPLETED',
  },
  'continue-as-new-first-run': { includes: [], endsWith: 'WORKFLOW_EXECUTION_CONTINUED_AS_NEW' },
  'continue-as-new-second-run': { includes: [], endsWith: 'WORKFLOW_EXECUTION_CONTINUED_AS_NEW' },
  'continue-as-new-last-run': { includes: [], endsWith: 'WORKFLOW_EXECUTION_COMPLETED' },
  'store-outage': {
    includes: ['MARKER_RECORDED', 'ACTIVITY_TASK_SCHEDULED'],
    endsWith: 'WORKFLOW_EXECUTION_COMPLETED',
  },
};

/** Each recorded history's file (one per scenario, recorded by this version) and what it must show. */
const expectedHistories = new Map<string, { includes: string[]; endsWith: string }>(
  Object.entries(scenarioShapes).map(([scenario, shape]) => [`${scenario}.json`, shape]),
);

const files = readdirSync(historiesDirectory)
  .filter((file) => file.endsWith('.json'))
  .sort();

function readHistory(file: string): JsonHistory {
  return JSON.parse(readFileSync(path.join(historiesDirectory, file), 'utf8')) as JsonHistory;
}

describe('recorded session histories', () => {
  it('cover every representative session', () => {
    expect(files).toEqual([...expectedHistories.keys()].sort());
    for (const file of files) {
      const types = eventTypeNames(readHistory(file));
      const expected = expectedHistories.get(file);
      expect(types, file).toEqual(expect.arrayContaining(expected?.includes ?? []));
      expect(types[types.length - 1], file).toBe(expected?.endsWith);
    }
    // The session waited for its store twice: once for a local write, once for the workflow's own write of a result.
    const scheduled = readHistory('store-outage.json').events.flatMap((event) => {
      const name = (event as { activityTaskScheduledEventAttributes?: { activityType?: { name?: string } } })
        .activityTaskScheduledEventAttributes?.activityType?.name;
      return name === undefined ? [] : [name];
    });
    expect(scheduled.filter((name) => name === 'awaitStore')).toHaveLength(2);
    // A run of this version records no patch marker, and upserts its search attributes only when its
    // status moves: a ticket flow, once, at its end (its start is listed by the client that starts it).
    for (const file of files) {
      const patchMarkers = readHistory(file).events.filter(
        (event) =>
          (event as { markerRecordedEventAttributes?: { markerName?: string } }).markerRecordedEventAttributes
            ?.markerName === 'core_patch',
      );
      expect(patchMarkers, file).toEqual([]);
    }
    const upserts = eventTypeNames(readHistory('ticket-flow.json')).filter((type) =>
      type.endsWith('UPSERT_WORKFLOW_SEARCH_ATTRIBUTES'),
    );
    expect(upserts).toHaveLength(1);
    // The parallel batch's three calls were scheduled by one workflow task.
    expect(eventTypeNames(readHistory('parallel-batch.json')).join(' ')).toContain(
      'ACTIVITY_TASK_SCHEDULED ACTIVITY_TASK_SCHEDULED ACTIVITY_TASK_SCHEDULED',
    );
  });

  it.each(files)('replays %s deterministically', async (file) => {
    const workflowBundle = await bundleSessionWorkflows();
    await expect(
      Worker.runReplayHistory({ workflowBundle }, historyFromJsonValue(readHistory(file))),
    ).resolves.toBeUndefined();
  });

  it('fails with a DeterminismViolationError against a workflow that schedules its activities in another order', async () => {
    const replay = Worker.runReplayHistory(
      { workflowsPath: alteredWorkflowsPath },
      historyFromJsonValue(readHistory('ticket-flow.json')),
    );
    await expect(replay).rejects.toBeInstanceOf(DeterminismViolationError);
    await expect(replay).rejects.toThrow(/Nondeterminism error: .*LocalActivity/);
  });
});
