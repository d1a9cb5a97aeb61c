import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModel, textResponse, toolCallResponse } from '../../../src/models';
import type { TranscriptEntry } from '../../../src/session';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { pollUntil } from '../../helpers/poll-until';
import { withSessionWorker } from '../../helpers/session-worker';
import { createTicketDesk } from '../../fixtures/ticket-desk';

describe('token usage per call, per run and per session', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  it('records each call’s usage, totals it per run and session across continue-as-new, and shows the total as a search attribute', async () => {
    const desk = createTicketDesk();
    const model = createScriptedModel([
      toolCallResponse(
        'create_ticket',
        { title: 'Printer on fire', priority: 'high' },
        { usage: { inputTokens: 1_000, outputTokens: 40, cachedInputTokens: 800 } },
      ),
      textResponse('Ticket T-1042 is open.', {
        usage: { inputTokens: 1_100, outputTokens: 12, cachedInputTokens: 1_000 },
      }),
      textResponse('You are welcome.', { usage: { inputTokens: 1_200, outputTokens: 8, reasoningTokens: 3 } }),
    ]);
    await withSessionWorker(
      { connections, tools: desk.tools, scriptedModels: { metered: model } },
      async ({ client }) => {
        const session = await client.startSession({
          sessionId: uniqueName('usage'),
          rules: desk.rules,
          model: { provider: 'scripted', model: 'metered' },
          firstMessage: 'File a ticket.',
          // Continue as new before every turn that follows one: the totals must cross the boundaries.
          limits: { continueAsNewAfterTurns: 1 },
        });
        await pollUntil(
          () => session.status(),
          (status) => status.lastRunEnd === 'answered',
        );
        await session.send('Thanks!');
        const status = await pollUntil(
          () => session.status(),
          (current) => current.counters.runs === 2 && current.lastRunEnd === 'answered',
        );
        expect(status.counters.continuedAsNew).toBeGreaterThan(0);
        expect(status.usage).toEqual({
          session: {
            modelCalls: 3,
            inputTokens: 3_300,
            outputTokens: 60,
            cachedInputTokens: 1_800,
            reasoningTokens: 3,
          },
          run: { modelCalls: 1, inputTokens: 1_200, outputTokens: 8, cachedInputTokens: 0, reasoningTokens: 3 },
        });
        expect((await session.ruleState()).usage).toEqual(status.usage);

        const models = (await session.transcript()).filter(
          (entry): entry is Extract<TranscriptEntry, { kind: 'model' }> => entry.kind === 'model',
        );
        expect(models.map((entry) => entry.usage)).toEqual([
          { inputTokens: 1_000, outputTokens: 40, cachedInputTokens: 800 },
          { inputTokens: 1_100, outputTokens: 12, cachedInputTokens: 1_000 },
          { inputTokens: 1_200, outputTokens: 8, reasoningTokens: 3 },
        ]);

        // ToolrailTotalTokens: input plus output, filterable in the Web UI; the visibility store catches up a moment later.
        const listed = await pollUntil(
          () => client.listSessions({ status: 'idle' }),
          (sessions) => sessions.some((entry) => entry.sessionId === session.sessionId && entry.totalTokens === 3_360),
          { timeoutMs: 30_000, intervalMs: 250 },
        );
        expect(listed.find((entry) => entry.sessionId === session.sessionId)?.totalTokens).toBe(3_360);
        const filtered = await pollUntil(
          () =>
            client.temporal.workflow.count(
              `WorkflowId = '${session.sessionId}' AND ToolrailTotalTokens >= 3000 AND ExecutionStatus = 'Running'`,
            ),
          (count) => count.count === 1,
          { timeoutMs: 30_000, intervalMs: 250 },
        );
        expect(filtered.count).toBe(1);
        await session.end();
      },
    );
  });
});
