import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltInModelSettings } from '../../../src/model-settings';
import type { TranscriptEntry } from '../../../src/session';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { readSessionHistory } from '../../helpers/session-history';
import { withSessionWorker } from '../../helpers/session-worker';
import {
  loadWireFixture,
  startWireServer,
  type WireApi,
  type WireFixture,
  type WireServer,
} from '../../helpers/wire-server';
import { createTicketDesk, ticketDeskMessage } from '../../fixtures/ticket-desk';

function settingsFor(api: WireApi, url: string): BuiltInModelSettings {
  if (api === 'anthropic') return { provider: 'anthropic', model: 'claude-sonnet-5-5', baseUrl: url };
  return {
    provider: api === 'openai-responses' ? 'openai-responses' : 'openai',
    model: 'gpt-4.1',
    baseUrl: `${url}/v1`,
  };
}

/** A recorded response with the server asking for a shorter wait than recorded, so retries stay quick. */
function retryingSoon(fixture: WireFixture, header: 'retry-after' | 'retry-after-ms', value: string): WireFixture {
  return { ...fixture, headers: { ...fixture.headers, [header]: value } };
}

const runEnd = (transcript: TranscriptEntry[]) =>
  transcript.filter((entry): entry is Extract<TranscriptEntry, { kind: 'run-end' }> => entry.kind === 'run-end').at(-1);

describe('what the model says is honoured, and what fails is said (recorded provider responses)', () => {
  let connections: HarnessConnections;
  let server: WireServer | undefined;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  /** Runs one non-interactive session of the ticket desk against `replies` and returns what it did. */
  async function runSession(api: WireApi, replies: WireFixture[]) {
    server = await startWireServer(replies);
    const desk = createTicketDesk();
    const url = server.url;
    return withSessionWorker({ connections, tools: desk.tools }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName(`outcome-${api}`),
        rules: desk.rules,
        model: settingsFor(api, url),
        firstMessage: ticketDeskMessage,
        interactive: false,
      });
      const final = await session.result();
      const transcript = await session.transcript();
      const history = await readSessionHistory(session);
      return { final, transcript, ran: desk.ran, requests: server?.requests ?? [], history };
    });
  }

  it.each<WireApi>(['openai', 'openai-responses', 'anthropic'])(
    'does not run a tool call the output limit cut off on %s: the run ends max_tokens',
    async (api) => {
      const { final, transcript, ran, requests } = await runSession(api, [loadWireFixture(api, 'tool-call-cut-off')]);
      expect(ran).toEqual([]);
      expect(requests).toHaveLength(1);
      expect(final).toMatchObject({ status: 'completed', lastRunEnd: 'max_tokens', counters: { toolCalls: 0 } });
      expect(runEnd(transcript)?.detail).toMatch(
        /^the output limit cut the response off \(.+\); 1 proposed call was not run: create_ticket$/,
      );
      const model = transcript.find((entry) => entry.kind === 'model');
      expect(model).toMatchObject({ finishReason: 'length', calls: [{ tool: 'create_ticket' }] });
    },
  );

  it.each<[WireApi, string]>([
    ['openai', 'refusal'],
    ['openai-responses', 'refusal'],
    ['anthropic', 'refusal'],
  ])('ends the run with refusal when the model refuses on %s', async (api, name) => {
    const { final, transcript } = await runSession(api, [loadWireFixture(api, name)]);
    expect(final).toMatchObject({ status: 'completed', lastRunEnd: 'refusal' });
    expect(runEnd(transcript)?.detail).toContain('the model refused');
    expect(transcript.find((entry) => entry.kind === 'model')).toMatchObject({ finishReason: 'refusal' });
  });

  it.each<WireApi>(['openai', 'openai-responses'])(
    'ends the run with content_filter when the provider filters the response on %s',
    async (api) => {
      const { final, transcript } = await runSession(api, [loadWireFixture(api, 'content-filter')]);
      expect(final).toMatchObject({ status: 'completed', lastRunEnd: 'content_filter' });
      expect(runEnd(transcript)?.detail).toBe("the provider's content filter stopped the response (content_filter)");
    },
  );

  it('calls the model again after a paused turn (Anthropic pause_turn), with the paused content last', async () => {
    const { final, transcript, requests } = await runSession('anthropic', [
      loadWireFixture('anthropic', 'pause-turn'),
      loadWireFixture('anthropic', 'text-answer'),
    ]);
    expect(final).toMatchObject({ status: 'completed', lastRunEnd: 'answered', counters: { turns: 2 } });
    expect(transcript.flatMap((entry) => (entry.kind === 'model' ? [entry.finishReason] : []))).toEqual([
      'pause',
      'stop',
    ]);
    const messages = (requests[1]?.body as { messages: { role: string; content: unknown }[] }).messages;
    expect(messages.at(-1)).toMatchObject({
      role: 'assistant',
      content: [{ type: 'text', text: "I'm still reading the printer's service history." }],
    });
  });

  it('runs the calls of a compatible server that sends arguments as JSON objects', async () => {
    const replies = ['single-tool-call', 'refused-call-correction', 'text-answer'].map((name) =>
      loadWireFixture('openai-compatible', name),
    );
    const { final, ran, requests } = await runSession('openai-compatible', replies);
    expect(final).toMatchObject({ lastRunEnd: 'answered', counters: { toolCalls: 1, blockedCalls: 1 } });
    expect(ran).toEqual(['create_ticket(Printer on fire, high)']);
    // Nothing was retried: one request per turn.
    expect(requests).toHaveLength(3);
  });

  it('says what a 400 without a body means, does not retry it, and ends the session failed', async () => {
    const { final, transcript, requests } = await runSession('openai-compatible', [
      loadWireFixture('openai-compatible', 'context-too-long-400-no-body'),
    ]);
    expect(requests).toHaveLength(1);
    expect(final).toMatchObject({ status: 'failed', lastRunEnd: 'model_error' });
    const detail = runEnd(transcript)?.detail ?? '';
    expect(detail).toContain('HTTP 400 Bad Request without a response body: the server gave no reason');
    expect(detail).not.toContain('status code (no body)');
  });

  it('retries five 500s in a row, then ends the run with model_error and the session failed', async () => {
    const error = retryingSoon(loadWireFixture('openai', 'server-error-500'), 'retry-after-ms', '10');
    const { final, transcript, requests } = await runSession(
      'openai',
      Array.from({ length: 5 }, () => error),
    );
    expect(requests).toHaveLength(5);
    expect(final).toMatchObject({ status: 'failed', lastRunEnd: 'model_error' });
    expect(runEnd(transcript)?.detail).toContain('HTTP 500 server_error');
  });

  it('retries a 429 after the retry-after the server sent, through Temporal', async () => {
    const limited = retryingSoon(loadWireFixture('openai', 'rate-limited-429'), 'retry-after', '1');
    const { final, requests, history } = await runSession('openai', [
      limited,
      loadWireFixture('openai', 'text-answer'),
    ]);
    expect(requests).toHaveLength(2);
    expect(final).toMatchObject({ status: 'completed', lastRunEnd: 'answered' });
    // The model call's second attempt started after the failure that asked Temporal to wait 1 s.
    const started = history.ofType('ACTIVITY_TASK_STARTED').at(0)?.attributes as {
      attempt?: number;
      lastFailure?: { applicationFailureInfo?: { type?: string; nextRetryDelay?: { seconds?: unknown } } };
    };
    expect(started.attempt).toBe(2);
    expect(started.lastFailure?.applicationFailureInfo?.type).toBe('RATE_LIMITED');
    expect(Number(String(started.lastFailure?.applicationFailureInfo?.nextRetryDelay?.seconds))).toBe(1);
  });

  it('retries an overloaded 529', async () => {
    const { final, requests } = await runSession('anthropic', [
      loadWireFixture('anthropic', 'overloaded-529'),
      loadWireFixture('anthropic', 'text-answer'),
    ]);
    expect(requests).toHaveLength(2);
    expect(final).toMatchObject({ status: 'completed', lastRunEnd: 'answered' });
  });
});
