import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModel, parallelToolCallsResponse, textResponse, toolCallResponse } from '../../../src/models';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { defineProbeTool } from '../../helpers/define-probe-tool';
import { pollUntil } from '../../helpers/poll-until';
import { readSessionHistory } from '../../helpers/session-history';
import { withSessionWorker } from '../../helpers/session-worker';
import { ToolProbe } from '../../helpers/tool-probe';
import { entriesOf, outline, toolResultOf } from '../../helpers/transcript-entries';
import { watchModel } from '../../helpers/watch-model';

const noRules = compileRules({ toolrail: 1, rules: [] });

describe('interrupting a session', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  const toolsFor = (probe: ToolProbe) => [
    defineProbeTool({ name: 'long_task', probe, interruptBehavior: 'cancel' }),
    defineProbeTool({ name: 'steady_task', probe, interruptBehavior: 'block' }),
  ];

  it('stops a running cancel tool at once, lets a block tool of the same batch finish, and ends the run interrupted', async () => {
    const probe = new ToolProbe();
    const model = createScriptedModel([
      parallelToolCallsResponse([
        { id: 'long', name: 'long_task', args: { ms: 10_000 } },
        { id: 'steady', name: 'steady_task', args: { hold: true } },
      ]),
    ]);
    await withSessionWorker(
      { connections, tools: toolsFor(probe), scriptedModels: { work: model } },
      async ({ client }) => {
        const session = await client.startSession({
          sessionId: uniqueName('interrupt-tools'),
          rules: noRules,
          model: { provider: 'scripted', model: 'work' },
          firstMessage: 'Do the long thing and the steady thing.',
          limits: { closeWhenIdle: true },
        });
        await Promise.all([probe.started('long'), probe.started('steady')]);
        await session.interrupt();

        // The cancel tool saw its abort signal and stopped long before its 10 s were up.
        expect(await probe.ended('long')).toMatchObject({ sawAbort: true, end: 'aborted' });
        // The block tool still runs, and the session waits for it.
        const waiting = await pollUntil(
          () => session.ruleState(),
          (state) => state.runningCalls.length === 1,
        );
        expect(waiting.runningCalls).toEqual([
          { callId: 'steady', toolName: 'steady_task', interruptBehavior: 'block' },
        ]);
        expect(probe.runsOf('steady')[0]?.end).toBeUndefined();
        probe.release('steady');

        // No model call after the interrupt: the script has one response, a second call would fail the session.
        expect(await session.result()).toMatchObject({ lastRunEnd: 'interrupted', counters: { turns: 1, runs: 1 } });
        expect(probe.runsOf('steady')).toEqual([expect.objectContaining({ sawAbort: false, end: 'returned' })]);

        const transcript = await session.transcript();
        expect(toolResultOf(transcript, 'long')).toMatchObject({ isError: true, code: 'INTERRUPTED' });
        expect(toolResultOf(transcript, 'long').content).toContain('Interrupted by the user');
        expect(toolResultOf(transcript, 'steady')).toMatchObject({ isError: false });
        expect(JSON.parse(toolResultOf(transcript, 'steady').content)).toEqual({
          tool: 'steady_task',
          callId: 'steady',
        });
        expect(outline(transcript).at(-1)).toBe('run-end:interrupted');

        const history = await readSessionHistory(session);
        const long = history.toolActivity('long');
        const steady = history.toolActivity('steady');
        expect(long.cancelRequestedEventId).toBeGreaterThan(
          history.ofType('WORKFLOW_EXECUTION_SIGNALED')[0]?.eventId ?? Infinity,
        );
        expect(long.closedAs).toBe('canceled');
        expect(steady.cancelRequestedEventId).toBeUndefined();
        expect(steady.closedAs).toBe('completed');
        expect(history.signals()).toEqual([{ name: 'interrupt', args: [{}] }]);
      },
    );
  });

  it('stops a slow model call', async () => {
    const watched = watchModel(createScriptedModel([textResponse('Too late.', { delayMs: 60_000 })]));
    await withSessionWorker(
      { connections, tools: toolsFor(new ToolProbe()), scriptedModels: { slow: watched.model } },
      async ({ client }) => {
        const session = await client.startSession({
          sessionId: uniqueName('interrupt-model'),
          rules: noRules,
          model: { provider: 'scripted', model: 'slow' },
          firstMessage: 'Think hard.',
          limits: { closeWhenIdle: true },
        });
        await watched.started(0);
        await session.interrupt();

        expect(await session.result()).toMatchObject({
          lastRunEnd: 'interrupted',
          counters: { turns: 1, runs: 1, toolCalls: 0 },
        });
        // The model call's abort signal fired: the call stopped instead of answering after 60 s.
        expect(await watched.settled(0)).toMatchObject({ sawAbort: true, end: 'failed' });

        const transcript = await session.transcript();
        expect(outline(transcript)).toEqual(['user:Think hard.', 'run-end:interrupted']);
        const history = await readSessionHistory(session);
        const [modelCall, ...others] = history.activities().filter((activity) => activity.activityType === 'callModel');
        expect(others).toEqual([]);
        expect(modelCall?.cancelRequestedEventId).toBeGreaterThan(
          history.ofType('WORKFLOW_EXECUTION_SIGNALED')[0]?.eventId ?? Infinity,
        );
      },
    );
  });

  it('starts the next run with the message of an interrupt', async () => {
    const model = createScriptedModel([textResponse('Too late.', { delayMs: 60_000 }), textResponse('Hi!')]);
    const watched = watchModel(model);
    await withSessionWorker(
      { connections, tools: toolsFor(new ToolProbe()), scriptedModels: { steer: watched.model } },
      async ({ client }) => {
        const session = await client.startSession({
          sessionId: uniqueName('interrupt-message'),
          rules: noRules,
          model: { provider: 'scripted', model: 'steer' },
          firstMessage: 'Write an essay.',
          limits: { closeWhenIdle: true },
        });
        await watched.started(0);
        await session.interrupt('Actually, just say hi.');

        expect(await session.result()).toMatchObject({ lastRunEnd: 'answered', counters: { turns: 2, runs: 2 } });
        expect(await watched.settled(0)).toMatchObject({ sawAbort: true });
        const transcript = await session.transcript();
        expect(outline(transcript)).toEqual([
          'user:Write an essay.',
          'run-end:interrupted',
          'user:Actually, just say hi.',
          'model:text',
          'run-end:answered',
        ]);
        // The second model call got the interrupt's message as the latest user message.
        expect(model.requests[1]?.messages.at(-1)).toEqual({ role: 'user', text: 'Actually, just say hi.' });
        const history = await readSessionHistory(session);
        expect(history.signals()).toEqual([{ name: 'interrupt', args: [{ text: 'Actually, just say hi.' }] }]);
      },
    );
  });

  it('runs nothing more of a response once the user interrupts while one of its calls waits for approval', async () => {
    const probe = new ToolProbe();
    const tools = [
      defineProbeTool({ name: 'guarded_read', probe, requiresPermission: true }),
      defineProbeTool({ name: 'plain_read', probe }),
      defineProbeTool({ name: 'write_note', probe, concurrency: 'WRITE_EXCLUSIVE' }),
    ];
    const model = createScriptedModel([
      parallelToolCallsResponse([
        { id: 'guarded', name: 'guarded_read', args: {} },
        { id: 'plain', name: 'plain_read', args: {} },
        { id: 'later', name: 'write_note', args: {} },
      ]),
    ]);
    await withSessionWorker({ connections, tools, scriptedModels: { guarded: model } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('interrupt-approval'),
        rules: noRules,
        model: { provider: 'scripted', model: 'guarded' },
        firstMessage: 'Read both, then write.',
        limits: { closeWhenIdle: true },
      });
      await pollUntil(
        () => session.ruleState(),
        (state) => state.pendingApprovals.some((pending) => pending.callId === 'guarded'),
      );
      await session.interrupt();

      expect(await session.result()).toMatchObject({ lastRunEnd: 'interrupted', counters: { toolCalls: 0 } });
      expect(probe.runs).toEqual([]);
      const transcript = await session.transcript();
      for (const callId of ['guarded', 'plain', 'later']) {
        expect(toolResultOf(transcript, callId)).toMatchObject({ isError: true, code: 'INTERRUPTED' });
      }
      expect((await readSessionHistory(session)).toolCallIds()).toEqual([]);
      // The transcript says the approval ended with the interrupt, not that a human said no.
      expect(entriesOf(transcript, 'approval')).toEqual([
        expect.objectContaining({ callId: 'guarded', decision: 'interrupted' }),
      ]);
      expect((await session.ruleState()).pendingApprovals).toEqual([]);
    });
  });

  it('holds a user message sent while tools run until they finish, then starts the next run with it', async () => {
    const probe = new ToolProbe();
    const model = createScriptedModel([
      toolCallResponse('steady_task', { hold: true }, { id: 'steady' }),
      textResponse('Checked the spelling too.'),
    ]);
    await withSessionWorker(
      { connections, tools: toolsFor(probe), scriptedModels: { queue: model } },
      async ({ client }) => {
        const session = await client.startSession({
          sessionId: uniqueName('message-while-running'),
          rules: noRules,
          model: { provider: 'scripted', model: 'queue' },
          firstMessage: 'Proofread the page.',
          limits: { closeWhenIdle: true },
        });
        await probe.started('steady');
        await session.send('Also check the spelling.');
        const queued = await pollUntil(
          () => session.status(),
          (status) => status.queuedMessages === 1,
        );
        expect(queued.status).toBe('running_tools');
        expect((await session.ruleState()).runningCalls).toEqual([expect.objectContaining({ callId: 'steady' })]);
        probe.release('steady');

        expect(await session.result()).toMatchObject({
          lastRunEnd: 'answered',
          counters: { turns: 2, runs: 2, toolCalls: 1 },
        });
        expect(probe.runsOf('steady')).toEqual([expect.objectContaining({ sawAbort: false, end: 'returned' })]);
        const transcript = await session.transcript();
        expect(outline(transcript)).toEqual([
          'user:Proofread the page.',
          'model:steady_task#steady',
          'verdict:steady_task#steady:allowed',
          'tool:steady_task#steady:ok',
          'run-end:new_message',
          'user:Also check the spelling.',
          'model:text',
          'run-end:answered',
        ]);
        // The next run's model call saw the tool's result, then the new message.
        expect(model.requests[1]?.messages.slice(-2)).toEqual([
          expect.objectContaining({ role: 'tool', callId: 'steady', isError: false }),
          { role: 'user', text: 'Also check the spelling.' },
        ]);
        expect(entriesOf(transcript, 'run-end').map((end) => end.reason)).toEqual(['new_message', 'answered']);
        const history = await readSessionHistory(session);
        const steady = history.toolActivity('steady');
        expect(steady.cancelRequestedEventId).toBeUndefined();
        // The message arrived while the tool ran, and the next run's model call came after the tool finished.
        expect(history.acceptedUpdates()).toEqual([
          expect.objectContaining({ name: 'sendUserMessage', args: [{ text: 'Also check the spelling.' }] }),
        ]);
        const [message] = history.ofType('WORKFLOW_EXECUTION_UPDATE_ACCEPTED');
        expect(message?.eventId).toBeGreaterThan(steady.scheduledEventId);
        expect(message?.eventId).toBeLessThan(steady.closedEventId ?? -Infinity);
        const secondModelCall = history.activities().filter((activity) => activity.activityType === 'callModel')[1];
        expect(secondModelCall?.scheduledEventId).toBeGreaterThan(steady.closedEventId ?? Infinity);
      },
    );
  });
});
