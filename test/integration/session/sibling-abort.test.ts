import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModel, parallelToolCallsResponse, textResponse } from '../../../src/models';
import type { SiblingAbort } from '../../../src/session/session-input';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { defineProbeTool } from '../../helpers/define-probe-tool';
import { readSessionHistory } from '../../helpers/session-history';
import type { SessionHistory } from '../../helpers/session-history';
import { withSessionWorker } from '../../helpers/session-worker';
import type { SessionWorkerScope } from '../../helpers/session-worker';
import { ToolProbe } from '../../helpers/tool-probe';
import { toolResultOf } from '../../helpers/transcript-entries';
import type { TranscriptEntry } from '../../../src/session/session-views';

const noRules = compileRules({ toolrail: 1, rules: [] });

/**
 * One response with three safe calls: two slow reads that run until released, and a read that
 * fails as soon as both of them are running.
 */
const batchWithFailure = parallelToolCallsResponse([
  { id: 'slow_1', name: 'slow_read', args: { hold: true } },
  { id: 'fails', name: 'flaky_read', args: { waitFor: ['slow_1', 'slow_2'], fail: 'the disk is on fire' } },
  { id: 'slow_2', name: 'slow_read', args: { hold: true } },
]);

describe('sibling abort in a concurrent batch', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  /** Runs the batch under `siblingAbort`; `whileRunning` gets the probe once the failing call ended. */
  async function runBatchWithFailure(
    siblingAbort: SiblingAbort | undefined,
    whileRunning: (probe: ToolProbe) => void,
  ): Promise<{ probe: ToolProbe; transcript: TranscriptEntry[]; history: SessionHistory }> {
    const probe = new ToolProbe();
    const tools = [defineProbeTool({ name: 'slow_read', probe }), defineProbeTool({ name: 'flaky_read', probe })];
    const model = createScriptedModel([batchWithFailure, textResponse('One read failed.')]);
    return withSessionWorker(
      { connections, tools, scriptedModels: { batch: model } },
      async ({ client }: SessionWorkerScope) => {
        const session = await client.startSession({
          sessionId: uniqueName('sibling-abort'),
          rules: noRules,
          model: { provider: 'scripted', model: 'batch' },
          firstMessage: 'Read everything.',
          limits: { closeWhenIdle: true, ...(siblingAbort === undefined ? {} : { siblingAbort }) },
        });
        await probe.ended('fails');
        whileRunning(probe);
        expect(await session.result()).toMatchObject({ lastRunEnd: 'answered', counters: { toolCalls: 3 } });
        return { probe, transcript: await session.transcript(), history: await readSessionHistory(session) };
      },
    );
  }

  it('cancels the running siblings of a failing call by default, and their results name the failed call', async () => {
    const { probe, transcript, history } = await runBatchWithFailure(undefined, () => undefined);

    expect(toolResultOf(transcript, 'fails')).toMatchObject({ isError: true, code: 'EXECUTION_ERROR' });
    expect(toolResultOf(transcript, 'fails').content).toContain('the disk is on fire');
    for (const callId of ['slow_1', 'slow_2']) {
      const result = toolResultOf(transcript, callId);
      expect(result).toMatchObject({ isError: true, code: 'SIBLING_ABORTED' });
      expect(result.content).toContain('flaky_read (call fails) failed');
      // The cancellation reached the running tool through its abort signal.
      expect(probe.runsOf(callId)).toEqual([expect.objectContaining({ sawAbort: true, end: 'aborted' })]);
      const activity = history.toolActivity(callId);
      expect(activity.cancelRequestedEventId).toBeGreaterThan(history.toolActivity('fails').closedEventId ?? Infinity);
      expect(activity.closedAs).toBe('canceled');
    }
    expect(history.toolActivity('fails').closedAs).toBe('completed');
    expect(history.ofType('ACTIVITY_TASK_CANCEL_REQUESTED')).toHaveLength(2);
    expect(history.ofType('ACTIVITY_TASK_CANCELED')).toHaveLength(2);
  });

  it("lets the siblings of a failing call finish with siblingAbort 'never'", async () => {
    const { probe, transcript, history } = await runBatchWithFailure('never', (running) => {
      // The failure is over and both siblings still run: let them finish.
      expect(running.runsOf('slow_1')[0]?.end).toBeUndefined();
      expect(running.runsOf('slow_2')[0]?.end).toBeUndefined();
      running.release('slow_1');
      running.release('slow_2');
    });

    expect(toolResultOf(transcript, 'fails')).toMatchObject({ isError: true, code: 'EXECUTION_ERROR' });
    for (const callId of ['slow_1', 'slow_2']) {
      expect(toolResultOf(transcript, callId)).toMatchObject({ isError: false });
      expect(JSON.parse(toolResultOf(transcript, callId).content)).toEqual({ tool: 'slow_read', callId });
      expect(probe.runsOf(callId)).toEqual([expect.objectContaining({ sawAbort: false, end: 'returned' })]);
      expect(history.toolActivity(callId).closedAs).toBe('completed');
    }
    expect(history.ofType('ACTIVITY_TASK_CANCEL_REQUESTED')).toEqual([]);
  });
});
