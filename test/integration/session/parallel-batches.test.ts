import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModel, parallelToolCallsResponse, textResponse } from '../../../src/models';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { defineProbeTool } from '../../helpers/define-probe-tool';
import { readSessionHistory } from '../../helpers/session-history';
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

  it('schedules safe calls in one workflow task, running together, and runs the unsafe call after them alone', async () => {
    const probe = new ToolProbe();
    const tools = [
      defineProbeTool({ name: 'slow_read', probe }),
      defineProbeTool({ name: 'write_note', probe, concurrency: 'WRITE_EXCLUSIVE' }),
    ];
    const readIds = ['read_a', 'read_b', 'read_c'];
    const model = createScriptedModel([
      parallelToolCallsResponse([
        ...readIds.map((id) => ({ id, name: 'slow_read', args: { hold: true } })),
        { id: 'write_d', name: 'write_note', args: {} },
      ]),
      textResponse('Read three things, then wrote one.'),
    ]);
    // What the reads had done when the write started.
    const readEndsAtWriteStart = probe
      .started('write_d')
      .then(() => probe.runs.filter((run) => run.tool === 'slow_read').map((run) => run.end));
    await withSessionWorker({ connections, tools, scriptedModels: { parallel: model } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('parallel'),
        rules: noRules,
        model: { provider: 'scripted', model: 'parallel' },
        firstMessage: 'Read, then write.',
        limits: { closeWhenIdle: true },
      });
      // A barrier: each read holds until released, and none is released before all three started.
      // Reaching it proves the three ran at the same time; run one by one, the session would stall here.
      await Promise.all(readIds.map((id) => probe.started(id)));
      expect(probe.runs.map((run) => run.end)).toEqual([undefined, undefined, undefined]);
      expect(probe.runsOf('write_d')).toEqual([]);
      for (const id of readIds) probe.release(id);

      const final = await session.result();
      expect(final).toMatchObject({ lastRunEnd: 'answered', counters: { toolCalls: 4, blockedCalls: 0 } });
      expect(await readEndsAtWriteStart).toEqual(['returned', 'returned', 'returned']);

      const transcript = await session.transcript();
      expect(outline(transcript).filter((line) => line.startsWith('tool:'))).toEqual([
        'tool:slow_read#read_a:ok',
        'tool:slow_read#read_b:ok',
        'tool:slow_read#read_c:ok',
        'tool:write_note#write_d:ok',
      ]);

      const history = await readSessionHistory(session);
      const reads = readIds.map((callId) => history.toolActivity(callId));
      const write = history.toolActivity('write_d');

      // Scheduled by the same workflow task: one command batch.
      expect(new Set(reads.map((read) => read.workflowTaskCompletedEventId)).size).toBe(1);
      expect(reads.every((read) => read.closedAs === 'completed')).toBe(true);
      // The write was scheduled only after the last read completed, by a later workflow task.
      const lastReadClosedId = Math.max(...reads.map((read) => read.closedEventId ?? Infinity));
      expect(write.scheduledEventId).toBeGreaterThan(lastReadClosedId);
      expect(write.workflowTaskCompletedEventId).toBeGreaterThan(lastReadClosedId);
      expect(write.closedAs).toBe('completed');
    });
  });
});
