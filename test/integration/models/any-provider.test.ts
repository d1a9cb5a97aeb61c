import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltInModelSettings } from '../../../src/model-settings';
import type { TranscriptEntry } from '../../../src/session';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { withSessionWorker } from '../../helpers/session-worker';
import { loadWireFixture, startWireServer, type WireApi, type WireServer } from '../../helpers/wire-server';
import { createTicketDesk, ticketDeskMessage } from '../../fixtures/ticket-desk';

/** How each recorded API is named in session settings, and where its base URL points. */
const apis: { api: WireApi; settings: (url: string) => BuiltInModelSettings }[] = [
  { api: 'openai', settings: (url) => ({ provider: 'openai', model: 'gpt-4.1', baseUrl: `${url}/v1` }) },
  {
    api: 'openai-responses',
    settings: (url) => ({ provider: 'openai-responses', model: 'gpt-4.1', baseUrl: `${url}/v1` }),
  },
  { api: 'anthropic', settings: (url) => ({ provider: 'anthropic', model: 'claude-sonnet-5-5', baseUrl: url }) },
  {
    api: 'openai-compatible',
    settings: (url) => ({ provider: 'openai', model: 'qwen2.5-7b-instruct', baseUrl: `${url}/v1` }),
  },
];

const modelEntries = (transcript: TranscriptEntry[]) =>
  transcript.filter((entry): entry is Extract<TranscriptEntry, { kind: 'model' }> => entry.kind === 'model');

describe('a session runs on any model through the provider interface, with the same rules and tools', () => {
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

  it.each(apis)('on $api (recorded): a refused call, its correction, then the answer', async ({ api, settings }) => {
    server = await startWireServer(
      ['single-tool-call', 'refused-call-correction', 'text-answer'].map((name) => loadWireFixture(api, name)),
    );
    const desk = createTicketDesk();
    await withSessionWorker({ connections, tools: desk.tools }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName(`provider-${api}`),
        rules: desk.rules,
        model: settings(server?.url ?? ''),
        systemPrompt: 'You are a support desk agent.',
        firstMessage: ticketDeskMessage,
        interactive: false,
      });
      const final = await session.result();
      expect(final).toMatchObject({
        status: 'completed',
        lastRunEnd: 'answered',
        counters: { turns: 3, toolCalls: 1, blockedCalls: 1 },
      });
      // The rules refused assign_ticket; only create_ticket ran, with the arguments the provider sent.
      expect(desk.ran).toEqual(['create_ticket(Printer on fire, high)']);
      // The refusal reached the model on the next request, as that API's error tool result.
      expect(server?.requests).toHaveLength(3);
      const second = JSON.stringify(server?.requests[1]?.body);
      expect(second).toContain('RULE_BLOCKED');
      expect(second).toContain('Call first: create_ticket');
      const models = modelEntries(await session.transcript());
      expect(models.map((entry) => entry.finishReason)).toEqual(['tool-calls', 'tool-calls', 'stop']);
      expect(models.every((entry) => (entry.usage?.inputTokens ?? 0) > 0)).toBe(true);
      expect(final.usage.session.modelCalls).toBe(3);
    });
  });

  it('on a model a user wrote in a few lines against LanguageModelV4', async () => {
    const usage = (input: number, output: number): LanguageModelV4GenerateResult['usage'] => ({
      inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: output, text: output, reasoning: undefined },
    });
    // It assigns first, creates the ticket when told to, and answers once a tool succeeded.
    const answer = (prompt: LanguageModelV4CallOptions['prompt']): LanguageModelV4GenerateResult => {
      const last = prompt.at(-1);
      const result = last?.role === 'tool' ? last.content[0] : undefined;
      const call = (toolName: string, input: object): LanguageModelV4GenerateResult => ({
        content: [{ type: 'tool-call', toolCallId: `${toolName}-1`, toolName, input: JSON.stringify(input) }],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage: usage(100, 10),
        warnings: [],
      });
      if (result?.type !== 'tool-result') return call('assign_ticket', { ticketId: 'T-1042', assignee: 'dana' });
      if (result.output.type === 'error-text')
        return call('create_ticket', { title: 'Printer on fire', priority: 'high' });
      return {
        content: [{ type: 'text', text: 'Ticket T-1042 is open.' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: usage(120, 6),
        warnings: [],
      };
    };
    const deskBot: LanguageModelV4 = {
      specificationVersion: 'v4',
      provider: 'acme',
      modelId: 'desk-bot',
      supportedUrls: {},
      doGenerate: ({ prompt }) => Promise.resolve(answer(prompt)),
      doStream: () => Promise.reject(new Error('desk-bot does not stream')),
    };
    const desk = createTicketDesk();
    await withSessionWorker({ connections, tools: desk.tools, models: { 'desk-bot': deskBot } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('provider-custom'),
        rules: desk.rules,
        model: { id: 'desk-bot' },
        firstMessage: ticketDeskMessage,
        interactive: false,
      });
      expect(await session.result()).toMatchObject({
        status: 'completed',
        lastRunEnd: 'answered',
        counters: { turns: 3, toolCalls: 1, blockedCalls: 1 },
        usage: { session: { modelCalls: 3, inputTokens: 320, outputTokens: 26 } },
      });
      expect(desk.ran).toEqual(['create_ticket(Printer on fire, high)']);
    });
  });
});
