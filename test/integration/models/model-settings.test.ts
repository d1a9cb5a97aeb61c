import { createOpenAI } from '@ai-sdk/openai';
import { WorkflowFailedError, WorkflowNotFoundError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ModelError, createScriptedModel, textResponse, toolCallResponse } from '../../../src/models';
import type { TranscriptEntry } from '../../../src/session';
import { defineTool } from '../../../src/tools/define-tool';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { withSessionWorker } from '../../helpers/session-worker';
import { loadWireFixture, startWireServer } from '../../helpers/wire-server';
import { createTicketDesk, ticketDeskMessage } from '../../fixtures/ticket-desk';

const noRules = compileRules({ toolrail: 1, rules: [] });

describe('model settings: a model by id or by provider, generation settings and the context budget', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  it('sends every generation setting of the session to the provider', async () => {
    const server = await startWireServer([loadWireFixture('openai', 'text-answer')]);
    try {
      await withSessionWorker({ connections, tools: [] }, async ({ client }) => {
        const session = await client.startSession({
          sessionId: uniqueName('generation-settings'),
          rules: noRules,
          model: {
            provider: 'openai',
            model: 'gpt-4.1',
            baseUrl: `${server.url}/v1`,
            temperature: 0.1,
            maxOutputTokens: 300,
            topP: 0.8,
            stopSequences: ['\n\n\n'],
            seed: 42,
            frequencyPenalty: 0.5,
            providerOptions: { openai: { user: 'desk-42' } },
          },
          firstMessage: 'Hello',
          interactive: false,
        });
        expect(await session.result()).toMatchObject({ status: 'completed', lastRunEnd: 'answered' });
      });
      expect(server.requests[0]?.body).toMatchObject({
        model: 'gpt-4.1',
        temperature: 0.1,
        max_tokens: 300,
        top_p: 0.8,
        stop: ['\n\n\n'],
        seed: 42,
        frequency_penalty: 0.5,
        user: 'desk-42',
      });
    } finally {
      await server.close();
    }
  });

  it('builds each request within the contextBudgetBytes the session sets', async () => {
    const dump = defineTool({
      name: 'dump',
      description: 'Returns a long text.',
      inputSchema: z.object({}),
      concurrency: 'READ_ONLY',
      execute: () => 'x'.repeat(8_000),
    });
    const model = createScriptedModel([toolCallResponse('dump'), textResponse('Read it.')]);
    await withSessionWorker({ connections, tools: [dump], scriptedModels: { budget: model } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('context-budget'),
        rules: noRules,
        model: { provider: 'scripted', model: 'budget', contextBudgetBytes: 2_048 },
        firstMessage: 'Dump it.',
        interactive: false,
      });
      expect(await session.result()).toMatchObject({ lastRunEnd: 'answered' });
      const shown = (await session.transcript()).flatMap((entry: TranscriptEntry) =>
        entry.kind === 'model' && entry.shown ? [entry.shown] : [],
      );
      expect(shown.map((view) => view.budgetBytes)).toEqual([2_048, 2_048]);
      // The 8,000-character result did not fit: the model read its preview.
      expect(shown[1]).toMatchObject({ previewed: 1 });
      expect(shown[1]?.bytes).toBeLessThanOrEqual(2_048);
      const result = model.requests[1]?.messages.find((message) => message.role === 'tool');
      expect(result?.role === 'tool' ? result.content.length : Infinity).toBeLessThan(2_048);
    });
  });

  it('refuses invalid settings before the session starts, naming each problem', async () => {
    await withSessionWorker({ connections, tools: [] }, async ({ client }) => {
      const sessionId = uniqueName('invalid-settings');
      const start = client.startSession({
        sessionId,
        rules: noRules,
        model: { provider: 'openai', model: 'gpt-4.1', temperature: 3, contextBudgetBytes: 10 },
        firstMessage: 'Hello',
      });
      const error = await start.then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(ModelError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'CONFIGURATION' });
      expect((error as Error).message).toMatch(/temperature: .*2/);
      expect((error as Error).message).toMatch(/contextBudgetBytes: .*1024/);
      await expect(client.getSession(sessionId).workflow.describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);

      const both = await client
        .startSession({ rules: noRules, model: { id: 'fast', provider: 'openai', model: 'x' } as never })
        .then(
          () => undefined,
          (caught: unknown) => caught,
        );
      expect((both as Error).message).toContain('give either id (a model the worker was given) or provider and model');
    });
  });

  it('runs a model a provider registry resolves by id (here @ai-sdk/openai, the Responses API)', async () => {
    const server = await startWireServer(
      ['single-tool-call', 'refused-call-correction', 'text-answer'].map((name) =>
        loadWireFixture('openai-responses', name),
      ),
    );
    const desk = createTicketDesk();
    try {
      const modelRegistry = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'test-key' });
      await withSessionWorker({ connections, tools: desk.tools, modelRegistry }, async ({ client }) => {
        const session = await client.startSession({
          sessionId: uniqueName('registry'),
          rules: desk.rules,
          model: { id: 'gpt-4.1' },
          firstMessage: ticketDeskMessage,
          interactive: false,
        });
        expect(await session.result()).toMatchObject({ status: 'completed', lastRunEnd: 'answered' });
      });
      expect(server.requests.map((request) => request.path)).toEqual([
        '/v1/responses',
        '/v1/responses',
        '/v1/responses',
      ]);
      expect(server.requests[0]?.headers.authorization).toBe('Bearer test-key');
      expect(desk.ran).toEqual(['create_ticket(Printer on fire, high)']);
    } finally {
      await server.close();
    }
  });

  it('fails the session loudly when the id names no model the worker has, listing the ones it has', async () => {
    const model = createScriptedModel([textResponse('unused')]);
    await withSessionWorker({ connections, tools: [], models: { fast: model } }, async ({ client }) => {
      const session = await client.startSession({
        sessionId: uniqueName('unknown-id'),
        rules: noRules,
        model: { id: 'smart' },
        firstMessage: 'Hello',
      });
      const failure = await session.result().then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(WorkflowFailedError);
      const cause = (failure as WorkflowFailedError).cause;
      expect(cause?.message).toContain('no model "smart" on this worker (its models: fast)');
      expect(await session.status()).toMatchObject({ status: 'failed' });
    });
  });
});
