import { WorkflowUpdateFailedError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModel, textResponse } from '../../../src/models';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { pollUntil } from '../../helpers/poll-until';
import { readSessionHistory } from '../../helpers/session-history';
import { withSessionWorker } from '../../helpers/session-worker';
import { outline } from '../../helpers/transcript-entries';

const noRules = compileRules({ toolrail: 1, rules: [] });

describe('malformed messages to a session', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  it('leaves the session unchanged when signals and updates carry malformed payloads', async () => {
    const model = createScriptedModel([textResponse('Hello to you too.')]);
    await withSessionWorker({ connections, tools: [], scriptedModels: { chat: model } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('bad-payloads'),
        rules: noRules,
        model: { provider: 'scripted', model: 'chat' },
        limits: { closeWhenIdle: true },
      });
      const snapshot = async () => ({
        status: await session.status(),
        transcript: await session.transcript(),
        ruleState: await session.ruleState(),
      });
      // The session records its content store when it starts: the snapshot is taken after that.
      await pollUntil(
        () => session.status(),
        (status) => status.store !== undefined,
      );
      const before = await snapshot();
      expect(before.status).toMatchObject({ status: 'idle', queuedMessages: 0, counters: { runs: 0, turns: 0 } });

      await session.workflow.signal('userMessage', { text: 42 });
      await session.workflow.signal('userMessage', { text: '   ' });
      await session.workflow.signal('userMessage', null);
      await session.workflow.signal('userMessage');
      await session.workflow.signal('interrupt', { message: 5 });
      await expect(
        session.workflow.executeUpdate('approveToolCall', { args: [{ callId: 7, approved: 'yes' }] }),
      ).rejects.toThrow(WorkflowUpdateFailedError);

      // Every signal reached the workflow and was handled without failing a workflow task…
      const delivered = await pollUntil(
        () => readSessionHistory(session),
        (history) => history.signals().length === 5 && history.ofType('WORKFLOW_TASK_COMPLETED').length >= 2,
      );
      expect(delivered.signals().map((signal) => signal.name)).toEqual([
        'userMessage',
        'userMessage',
        'userMessage',
        'userMessage',
        'interrupt',
      ]);
      expect(delivered.ofType('WORKFLOW_TASK_FAILED')).toEqual([]);
      expect(delivered.acceptedUpdates()).toEqual([]);
      // …and changed nothing but the transcript, which says what was dropped and why.
      const after = await snapshot();
      expect({ status: after.status, ruleState: after.ruleState }).toEqual({
        status: before.status,
        ruleState: before.ruleState,
      });
      expect(after.transcript.slice(0, before.transcript.length)).toEqual(before.transcript);
      expect(
        after.transcript.slice(before.transcript.length).map((entry) => entry.kind === 'notice' && entry.text),
      ).toEqual([
        '[toolrail] dropped a userMessage signal: text: expected string, got 42; userMessage takes { text: string }',
        '[toolrail] dropped a userMessage signal: the message is empty',
        '[toolrail] dropped a userMessage signal: text: missing (expected string); userMessage takes { text: string }',
        '[toolrail] dropped a userMessage signal: text: missing (expected string); userMessage takes { text: string }',
        '[toolrail] dropped an interrupt signal: message: expected string, got 5; interrupt takes nothing or { text?: string }',
      ]);

      // The session still works.
      await session.send('Hello');
      expect(await session.result()).toMatchObject({ lastRunEnd: 'answered', counters: { runs: 1, turns: 1 } });
      expect(outline(await session.transcript()).filter((line) => line !== 'notice')).toEqual([
        'user:Hello',
        'model:text',
        'run-end:answered',
      ]);
      expect(model.requests).toHaveLength(1);
      expect(model.requests[0]?.messages).toEqual([{ role: 'user', text: 'Hello' }]);
    });
  });
});
