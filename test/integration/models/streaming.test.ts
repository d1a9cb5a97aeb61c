import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelTextDelta } from '../../../activities';
import { createScriptedModel, textResponse, toolCallResponse } from '../../../src/models';
import type { TranscriptEntry } from '../../../src/session';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { withSessionWorker } from '../../helpers/session-worker';
import { watchModel } from '../../helpers/watch-model';
import { loadWireFixture, startWireServer } from '../../helpers/wire-server';
import { createTicketDesk } from '../../fixtures/ticket-desk';

const noRules = compileRules({ toolrail: 1, rules: [] });

const modelTexts = (transcript: TranscriptEntry[]): string[] =>
  transcript.flatMap((entry) => (entry.kind === 'model' && entry.text ? [entry.text] : []));

describe('streaming from the model', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  it('hands each text delta of a streamed response to onModelTextDelta, in order, per turn', async () => {
    const desk = createTicketDesk();
    const model = createScriptedModel([
      toolCallResponse('create_ticket', { title: 'Printer on fire', priority: 'high' }, { text: 'Filing the ticket.' }),
      textResponse('Ticket T-1042 is open.'),
    ]);
    const deltas: ModelTextDelta[] = [];
    await withSessionWorker(
      {
        connections,
        tools: desk.tools,
        // The worker's entry makes this model stream unless a session says otherwise.
        models: { streamer: { model, stream: true } },
        onModelTextDelta: (event) => deltas.push(event),
      },
      async ({ client }) => {
        const sessionId = uniqueName('streamed');
        const session = await client.startSession({
          sessionId,
          rules: noRules,
          model: { id: 'streamer' },
          firstMessage: 'File a ticket.',
          interactive: false,
        });
        expect(await session.result()).toMatchObject({ lastRunEnd: 'answered' });
        expect(deltas.map(({ turn, delta }) => [turn, delta])).toEqual([
          [0, 'Filing '],
          [0, 'the '],
          [0, 'ticket.'],
          [1, 'Ticket '],
          [1, 'T-1042 '],
          [1, 'is '],
          [1, 'open.'],
        ]);
        expect(deltas.every((event) => event.sessionId === sessionId && event.attempt === 1)).toBe(true);
        expect(modelTexts(await session.transcript())).toEqual(['Filing the ticket.', 'Ticket T-1042 is open.']);
      },
    );
  });

  it('hands a response that is not streamed to onModelTextDelta whole, once', async () => {
    const model = createScriptedModel([textResponse('All at once.')]);
    const deltas: ModelTextDelta[] = [];
    await withSessionWorker(
      { connections, tools: [], models: { plain: model }, onModelTextDelta: (event) => deltas.push(event) },
      async ({ client }) => {
        const session = await client.startSession({
          sessionId: uniqueName('not-streamed'),
          rules: noRules,
          model: { id: 'plain' },
          firstMessage: 'Hello',
          interactive: false,
        });
        await session.result();
        expect(deltas.map(({ delta }) => delta)).toEqual(['All at once.']);
      },
    );
  });

  it('goes on when onModelTextDelta throws: the hook cannot fail a model call', async () => {
    const model = createScriptedModel([textResponse('Still answered.')]);
    let calls = 0;
    await withSessionWorker(
      {
        connections,
        tools: [],
        models: { streamer: { model, stream: true } },
        onModelTextDelta: () => {
          calls += 1;
          throw new Error('the live feed is down');
        },
      },
      async ({ client }) => {
        const session = await client.startSession({
          sessionId: uniqueName('throwing-hook'),
          rules: noRules,
          model: { id: 'streamer' },
          firstMessage: 'Hello',
          interactive: false,
        });
        expect(await session.result()).toMatchObject({ status: 'completed', lastRunEnd: 'answered' });
        expect(calls).toBe(2);
        expect(modelTexts(await session.transcript())).toEqual(['Still answered.']);
      },
    );
  });

  it('lands an interrupt mid-stream: the stream stops and the run ends interrupted', async () => {
    const watched = watchModel(
      createScriptedModel([textResponse('Let me think about this for a very long while.', { delayMs: 60_000 })]),
    );
    const deltas: string[] = [];
    await withSessionWorker(
      {
        connections,
        tools: [],
        models: { slow: watched.model },
        onModelTextDelta: ({ delta }) => deltas.push(delta),
      },
      async ({ client }) => {
        const session = await client.startSession({
          sessionId: uniqueName('interrupt-stream'),
          rules: noRules,
          model: { id: 'slow', stream: true },
          firstMessage: 'Think hard.',
          limits: { closeWhenIdle: true },
        });
        // The first delta arrived: the response is being streamed when the interrupt lands.
        await expect.poll(() => deltas, { timeout: 20_000 }).toEqual(['Let ']);
        await session.interrupt();
        expect(await session.result()).toMatchObject({ lastRunEnd: 'interrupted', counters: { turns: 1 } });
        expect(await watched.settled(0)).toMatchObject({ sawAbort: true, end: 'failed' });
      },
    );
  });

  it('closes the HTTP request of a provider stream on an interrupt (recorded Anthropic stream)', async () => {
    const server = await startWireServer([loadWireFixture('anthropic', 'streamed-text-held')]);
    const deltas: string[] = [];
    try {
      await withSessionWorker(
        { connections, tools: [], onModelTextDelta: ({ delta }) => deltas.push(delta) },
        async ({ client }) => {
          const session = await client.startSession({
            sessionId: uniqueName('interrupt-provider-stream'),
            rules: noRules,
            model: { provider: 'anthropic', model: 'claude-sonnet-5-5', baseUrl: server.url, stream: true },
            firstMessage: 'Tell me about printers.',
            limits: { closeWhenIdle: true },
          });
          await expect.poll(() => deltas, { timeout: 20_000 }).toEqual(['Let me', ' think about']);
          await session.interrupt();
          expect(await session.result()).toMatchObject({ lastRunEnd: 'interrupted' });
          await server.heldConnectionClosed;
          expect(server.requests).toHaveLength(1);
          expect(server.requests[0]?.body).toMatchObject({ stream: true });
        },
      );
    } finally {
      await server.close();
    }
  });
});
