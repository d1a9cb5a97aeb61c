import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { FeedGapError } from '../../../src/client/session-feed';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModel, textResponse, toolCallResponse } from '../../../src/models';
import type { FeedEvent } from '../../../src/session';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { defineProbeTool } from '../../helpers/define-probe-tool';
import { readSessionHistory } from '../../helpers/session-history';
import { withSessionWorker } from '../../helpers/session-worker';
import { ToolProbe } from '../../helpers/tool-probe';
import { withoutTime } from '../../helpers/feed-without-time';

const noRules = compileRules({ toolrail: 1, rules: [] });
/** `deploy` needs `check` first: a deploy proposed before any check is refused with that reason. */
const checkFirst = compileRules({ toolrail: 1, rules: [{ kind: 'requires', tool: 'deploy', after: ['check'] }] });

/** The offsets of `events`, which must be 0, 1, 2, … from `from` on. */
function expectContiguous(events: readonly FeedEvent[], from = 0): void {
  expect(events.map((event) => event.offset)).toEqual(events.map((_, index) => from + index));
}

describe('the live feed of a session', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  const toolsFor = (probe: ToolProbe) => [
    defineProbeTool({ name: 'check', probe }),
    defineProbeTool({ name: 'deploy', probe, concurrency: 'WRITE_EXCLUSIVE', requiresPermission: true }),
  ];

  it('shows a subscriber every event once and in order as it happens (it approves the call it sees waiting), and a late one the same', async () => {
    const probe = new ToolProbe();
    const model = createScriptedModel([
      toolCallResponse('deploy', {}, { id: 'deploy_early' }),
      toolCallResponse('check', {}, { id: 'check_1' }),
      toolCallResponse('deploy', {}, { id: 'deploy_1' }),
      textResponse('Deployed after the check.'),
    ]);
    await withSessionWorker(
      { connections, tools: toolsFor(probe), scriptedModels: { ops: model } },
      async ({ client }) => {
        const session = await client.startSession({
          sessionId: uniqueName('feed-live'),
          rules: checkFirst,
          model: { provider: 'scripted', model: 'ops' },
          firstMessage: 'Check, then deploy.',
          limits: { closeWhenIdle: true },
        });
        const live: FeedEvent[] = [];
        for await (const event of session.events()) {
          live.push(event);
          // The approval is only granted once the subscriber sees it asked for: the feed is live.
          if (event.type === 'approvals_requested') await session.approve(event.approvals[0]?.callId ?? '');
        }
        expectContiguous(live);
        expect(live.at(-1)).toMatchObject({ type: 'session_ended', status: 'completed' });
        expect(live.filter((event) => event.type === 'verdict')).toEqual([
          expect.objectContaining({
            callId: 'deploy_early',
            verdict: 'blocked',
            reasons: [expect.objectContaining({ code: 'prerequisite_not_met', callFirst: ['check'] })],
          }),
          expect.objectContaining({ callId: 'check_1', verdict: 'allowed' }),
          expect.objectContaining({ callId: 'deploy_1', verdict: 'allowed' }),
        ]);
        const approvalDecided = live.findIndex((event) => event.type === 'approval_decided');
        const deployStarted = live.findIndex((event) => event.type === 'tool_started' && event.callId === 'deploy_1');
        expect(approvalDecided).toBeGreaterThan(0);
        expect(deployStarted).toBeGreaterThan(approvalDecided);
        expect(live.find((event) => event.type === 'run_started')).toMatchObject({ run: 1, messageOffset: 0 });
        expect(live.filter((event) => event.type === 'run_ended')).toEqual([
          expect.objectContaining({ run: 1, reason: 'answered' }),
        ]);
        // Every event carries its workflow time, and the feed wrote nothing to the history.
        expect(live.every((event) => event.at > 0)).toBe(true);
        const history = await readSessionHistory(session);
        expect(history.events.filter((event) => event.type.includes('UPDATE'))).toHaveLength(2); // the approval only

        // A subscriber that comes after the end, and one that starts in the middle, see the same events.
        const late: FeedEvent[] = [];
        for await (const event of session.events()) late.push(event);
        expect(late.map(withoutTime)).toEqual(live.map(withoutTime));
        const middle: FeedEvent[] = [];
        for await (const event of session.events({ from: 7 })) middle.push(event);
        expect(middle.map(withoutTime)).toEqual(live.slice(7).map(withoutTime));
        for (const events of [live, late, middle]) {
          const times = events.map((event) => event.at);
          expect(times).toEqual(times.toSorted((a, b) => a - b));
        }
      },
    );
  });

  it("lets an app await the reply to each message it sends, one sent mid-run included, and refuses to subscribe past the feed's end", async () => {
    const probe = new ToolProbe();
    const model = createScriptedModel([
      toolCallResponse(
        'check',
        { answer: 'all checks pass' },
        { id: 'check_1', usage: { inputTokens: 50, outputTokens: 5 } },
      ),
      textResponse('All checks pass.', { usage: { inputTokens: 60, outputTokens: 4 } }),
      toolCallResponse('check', { hold: true }, { id: 'check_2' }),
      // No further turn in run 2: the message queued meanwhile ends it after check_2.
      textResponse('Answer to the message sent mid-run.'),
    ]);
    await withSessionWorker(
      { connections, tools: toolsFor(probe), scriptedModels: { ops: model } },
      async ({ client }) => {
        const session = await client.startSession({
          sessionId: uniqueName('feed-reply'),
          rules: noRules,
          model: { provider: 'scripted', model: 'ops' },
        });
        const first = await session.send('Run the checks.');
        expect(first).toMatchObject({ offset: 0, queuedBefore: 0 });
        await expect(first.reply()).resolves.toMatchObject({
          run: 1,
          reason: 'answered',
          answer: 'All checks pass.',
          usage: { modelCalls: 2, inputTokens: 110, outputTokens: 9 },
        });
        // A message sent while a run is busy ends that run at its next turn and gets a run of its own.
        const second = await session.send('Check again.');
        await probe.started('check_2');
        const third = await session.send('Stop checking and tell me.');
        expect(third.queuedBefore).toBe(0);
        probe.release('check_2');
        const [secondReply, thirdReply] = await Promise.all([second.reply(), third.reply()]);
        expect(secondReply).toMatchObject({ run: 2, reason: 'new_message' });
        expect(secondReply.answer).toBeUndefined();
        expect(thirdReply).toMatchObject({ run: 3, reason: 'answered', answer: 'Answer to the message sent mid-run.' });
        // The reply of an earlier message is still known afterwards.
        await expect(first.reply()).resolves.toMatchObject({ run: 1 });
        const tooFar = session.events({ from: 10_000 })[Symbol.asyncIterator]().next();
        await expect(tooFar).rejects.toThrow(/offset 10000 is past the end of the feed/);
        await session.end();
        await session.result();
      },
    );
  });

  it('shows the text of a streaming model call as it is written: the subscriber interrupts the call it sees writing', async () => {
    const probe = new ToolProbe();
    const model = createScriptedModel([
      textResponse('Thinking about it for a very long time', { delayMs: 600_000 }),
      textResponse('Stopped, as asked.'),
    ]);
    await withSessionWorker(
      { connections, tools: toolsFor(probe), scriptedModels: { ops: model } },
      async ({ client }) => {
        const session = await client.startSession({
          sessionId: uniqueName('feed-text'),
          rules: noRules,
          // Streamed (`doStream`): the first word at once, the rest after the delay.
          model: { provider: 'scripted', model: 'ops', stream: true },
          firstMessage: 'Think.',
        });
        const events: FeedEvent[] = [];
        for await (const event of session.events()) {
          events.push(event);
          // The call answers only after ten minutes: text seen now was streamed while it runs.
          if (event.type === 'text_delta') await session.interrupt('Stop and answer.');
          if (event.type === 'run_ended' && event.run === 2) break;
        }
        const texts = events.filter((event) => event.type === 'text_delta');
        expect(texts).toEqual([expect.objectContaining({ turn: 0, attempt: 1, text: 'Thinking ' })]);
        expect(events.filter((event) => event.type === 'run_ended').map((event) => event.reason)).toEqual([
          'interrupted',
          'answered',
        ]);
        // One signal carried the streamed text; the second answer, not streamed over time, sent none.
        const history = await readSessionHistory(session);
        const signals = history.ofType('WORKFLOW_EXECUTION_SIGNALED').map((event) => event.attributes['signalName']);
        expect(signals).toEqual(['modelText', 'interrupt']);
        await session.end();
        await session.result();
      },
    );
  });

  it('tells a subscriber that asks for events no run holds any more where the feed resumes', async () => {
    const probe = new ToolProbe();
    const model = createScriptedModel([
      ...['a', 'b', 'c', 'd'].map((answer) => toolCallResponse('check', { answer }, { id: `check_${answer}` })),
      textResponse('Checked four times.'),
    ]);
    await withSessionWorker(
      { connections, tools: toolsFor(probe), scriptedModels: { ops: model } },
      async ({ client }) => {
        const session = await client.startSession({
          sessionId: uniqueName('feed-gap'),
          rules: noRules,
          model: { provider: 'scripted', model: 'ops' },
          firstMessage: 'Check four times.',
          // A small window: the run keeps only its newest events for late subscribers.
          limits: { closeWhenIdle: true, feedWindowBytes: 3_000 },
        });
        const live: FeedEvent[] = [];
        for await (const event of session.events()) live.push(event);
        expectContiguous(live);

        const late = session.events()[Symbol.asyncIterator]();
        const gap = await late.next().then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(gap).toBeInstanceOf(FeedGapError);
        const { requested, resumeFrom } = gap as FeedGapError;
        expect(requested).toBe(0);
        expect(resumeFrom).toBeGreaterThan(5);
        expect((gap as FeedGapError).message).toContain(`subscribe from ${resumeFrom}`);
        const resumed: FeedEvent[] = [];
        for await (const event of session.events({ from: resumeFrom })) resumed.push(event);
        expect(resumed.map(withoutTime)).toEqual(live.slice(resumeFrom).map(withoutTime));
      },
    );
  });

  it('starts a session on the first sendOrStart and appends to it on the next, and refuses an ended one', async () => {
    const probe = new ToolProbe();
    const model = createScriptedModel([textResponse('Hello.'), textResponse('Still here.')]);
    await withSessionWorker(
      { connections, tools: toolsFor(probe), scriptedModels: { ops: model } },
      async ({ client }) => {
        const sessionId = uniqueName('feed-send-or-start');
        const options = { sessionId, rules: noRules, model: { provider: 'scripted' as const, model: 'ops' } };
        const first = await client.sendOrStart({ ...options, text: 'Hi.' });
        await expect(first.message.reply()).resolves.toMatchObject({ run: 1, answer: 'Hello.' });
        const second = await client.sendOrStart({ ...options, text: 'Are you there?' });
        expect(second.session.sessionId).toBe(sessionId);
        await expect(second.message.reply()).resolves.toMatchObject({ run: 2, answer: 'Still here.' });
        const status = await second.session.status();
        expect(status.counters.runs).toBe(2);
        expect(await second.session.workflow.describe()).toMatchObject({
          runId: (await first.session.workflow.describe()).runId,
        });
        await second.session.end();
        await second.session.result();
        await expect(client.sendOrStart({ ...options, text: 'Hello again.' })).rejects.toBeInstanceOf(
          WorkflowExecutionAlreadyStartedError,
        );
      },
    );
  });
});
