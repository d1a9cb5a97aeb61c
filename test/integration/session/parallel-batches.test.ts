import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModel, parallelToolCallsResponse, textResponse } from '../../../src/models';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { defineProbeTool } from '../../helpers/define-probe-tool';
import { readSessionHistory } from '../../helpers/session-history';
import type { ActivityTimeline } from '../../helpers/session-history';
import { withSessionWorker } from '../../helpers/session-worker';
import { ToolProbe } from '../../helpers/tool-probe';
import { outline } from '../../helpers/transcript-entries';

const noRules = compileRules({ toolrail: 1, rules: [] });

describe('tool batches of one response', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  it('schedules safe calls in one workflow task, overlapping, and runs the unsafe call after them alone', async () => {
    const probe = new ToolProbe();
    const tools = [
      defineProbeTool({ name: 'slow_read', probe }),
      defineProbeTool({ name: 'write_note', probe, concurrency: 'WRITE_EXCLUSIVE' }),
    ];
    const model = createScriptedModel([
      parallelToolCallsResponse([
        { id: 'read_a', name: 'slow_read', args: { ms: 300 } },
        { id: 'read_b', name: 'slow_read', args: { ms: 300 } },
        { id: 'read_c', name: 'slow_read', args: { ms: 300 } },
        { id: 'write_d', name: 'write_note', args: {} },
      ]),
      textResponse('Read three things, then wrote one.'),
    ]);
    await withSessionWorker({ connections, tools, scriptedModels: { parallel: model } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('parallel'),
        rules: noRules,
        model: { provider: 'scripted', model: 'parallel' },
        firstMessage: 'Read, then write.',
        limits: { closeWhenIdle: true },
      });
      const final = await session.result();
      expect(final).toMatchObject({ lastRunEnd: 'answered', counters: { toolCalls: 4, blockedCalls: 0 } });

      const transcript = await session.transcript();
      expect(outline(transcript).filter((line) => line.startsWith('tool:'))).toEqual([
        'tool:slow_read#read_a:ok',
        'tool:slow_read#read_b:ok',
        'tool:slow_read#read_c:ok',
        'tool:write_note#write_d:ok',
      ]);

      const history = await readSessionHistory(session);
      const reads = ['read_a', 'read_b', 'read_c'].map((callId) => history.toolActivity(callId));
      const write = history.toolActivity('write_d');

      // Scheduled by the same workflow task: one command batch.
      expect(new Set(reads.map((read) => read.workflowTaskCompletedEventId)).size).toBe(1);
      expect(reads.every((read) => read.closedAs === 'completed')).toBe(true);
      // Each read started before every other read completed: the three ran at the same time.
      for (const read of reads) {
        for (const other of reads) expect(started(read)).toBeLessThan(closed(other));
      }
      // The write was scheduled only after the last read completed, by a later workflow task.
      const lastReadClosedId = Math.max(...reads.map((read) => read.closedEventId ?? Infinity));
      expect(write.scheduledEventId).toBeGreaterThan(lastReadClosedId);
      expect(write.workflowTaskCompletedEventId).toBeGreaterThan(lastReadClosedId);
      expect(write.scheduledAt).toBeGreaterThanOrEqual(Math.max(...reads.map(closed)));
      expect(write.closedAs).toBe('completed');

      // The worker saw the same: the reads overlapped, the write ran after all of them.
      const [readRuns, writeRun] = [probe.runs.filter((run) => run.tool === 'slow_read'), probe.runsOf('write_d')[0]];
      const lastReadEnd = Math.max(...readRuns.map((run) => run.endedAt ?? Infinity));
      expect(Math.max(...readRuns.map((run) => run.startedAt))).toBeLessThan(
        Math.min(...readRuns.map((run) => run.endedAt ?? 0)),
      );
      expect(writeRun?.startedAt).toBeGreaterThanOrEqual(lastReadEnd);
    });
  });
});

function started(activity: ActivityTimeline): number {
  if (activity.startedAt === undefined) throw new Error(`activity ${activity.scheduledEventId} never started`);
  return activity.startedAt;
}

function closed(activity: ActivityTimeline): number {
  if (activity.closedAt === undefined) throw new Error(`activity ${activity.scheduledEventId} never closed`);
  return activity.closedAt;
}
