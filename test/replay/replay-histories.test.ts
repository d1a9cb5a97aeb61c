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

const continueAsNew = ['continue-as-new-first-run', 'continue-as-new-second-run', 'continue-as-new-last-run'];

/** The scenarios recorded by each shape of history the workflow code wrote, by the suffix of their files. */
const recordings: [suffix: string, scenarios: string[]][] = [
  ['', Object.keys(scenarioShapes)],
  // After the catalog moved to the model call (`patched('catalog-on-change')`): no catalog marker per turn.
  ['catalog-on-change', ['ticket-flow', 'parallel-batch', 'approval']],
  // After the status attribute became the listed status (`patched('listed-status-attribute')`) and calls went packed.
  ['listed-status', ['ticket-flow', 'approval']],
  // After a new run records one marker for every patch (`currentPatches`), begins a new session in
  // one local activity and upserts only the search attributes that changed.
  ['session-patches', ['ticket-flow', 'approval', 'other-clients', ...continueAsNew, 'store-outage']],
  // After a new run's counts and last tool went with its listed status (the marker of 2026-12): they
  // are upserted when the status moves and before continue-as-new, not each time one changes.
  ['status-move', ['ticket-flow', 'approval', 'other-clients', ...continueAsNew, 'store-outage']],
];

/** Each recorded history's file and what it must show. */
const expectedHistories = new Map<string, { includes: string[]; endsWith: string } | undefined>(
  recordings.flatMap(([suffix, scenarios]) =>
    scenarios.map((scenario) => [`${scenario}${suffix ? `-${suffix}` : ''}.json`, scenarioShapes[scenario]]),
  ),
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
    // A run started by 2026-11 or later records one patch marker, whatever the patches it has.
    for (const file of files.filter((name) => /-(session-patches|status-move)\.json$/.test(name))) {
      const patchMarkers = readHistory(file).events.filter(
        (event) =>
          (event as { markerRecordedEventAttributes?: { markerName?: string } }).markerRecordedEventAttributes
            ?.markerName === 'core_patch',
      );
      expect(patchMarkers, file).toHaveLength(1);
    }
    // A run of this version upserts its counts and last tool with its status: a ticket flow upserts
    // the SDK's record of its marker and, once, its end (a run of 2026-11 upserted five times).
    const upserts = (file: string): number =>
      eventTypeNames(readHistory(file)).filter((type) => type.endsWith('UPSERT_WORKFLOW_SEARCH_ATTRIBUTES')).length;
    expect(upserts('ticket-flow-status-move.json')).toBe(2);
    expect(upserts('ticket-flow-session-patches.json')).toBe(5);
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
