import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { pollUntil } from '../../helpers/poll-until';
import { withSessionWorker } from '../../helpers/session-worker';
import { loadWireFixture, startWireServer } from '../../helpers/wire-server';
import { createTicketDesk, ticketDeskMessage } from '../../fixtures/ticket-desk';

describe('GenAI semantic conventions on the activity spans', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  it('sets gen_ai.* next to toolrail.* on RunActivity:callModel and RunActivity:executeTool, and usage on toolrail.model_call', async () => {
    const server = await startWireServer(
      ['single-tool-call', 'refused-call-correction', 'text-answer'].map((name) => loadWireFixture('anthropic', name)),
    );
    const exporter = new InMemorySpanExporter();
    const tracing = { spanProcessor: new SimpleSpanProcessor(exporter) };
    const desk = createTicketDesk();
    const sessionId = uniqueName('gen-ai-spans');
    try {
      const spans = await withSessionWorker({ connections, tools: desk.tools, tracing }, async ({ client }) => {
        const session = await client.startSession({
          sessionId,
          rules: desk.rules,
          model: { provider: 'anthropic', model: 'claude-sonnet-5-5', baseUrl: server.url, temperature: 0.5 },
          firstMessage: ticketDeskMessage,
          interactive: false,
        });
        await session.result();
        return pollUntil(
          () => Promise.resolve(exporter.getFinishedSpans()),
          (finished) => finished.some((span) => span.name === 'RunWorkflow:agentSession'),
        );
      });
      const modelSpans = spans
        .filter((span) => span.name === 'RunActivity:callModel')
        .sort((a, b) => Number(a.attributes['toolrail.turn.index']) - Number(b.attributes['toolrail.turn.index']));
      expect(modelSpans).toHaveLength(3);
      expect(modelSpans[0]?.attributes).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'anthropic',
        'gen_ai.system': 'anthropic',
        'gen_ai.request.model': 'claude-sonnet-5-5',
        'gen_ai.request.temperature': 0.5,
        'gen_ai.conversation.id': sessionId,
        'gen_ai.response.id': 'msg_01Qm8vN3kR5tW7xY9zA1bC2d',
        'gen_ai.response.model': 'claude-sonnet-4-5-20250929',
        'gen_ai.response.finish_reasons': ['tool_use'],
        'toolrail.session.id': sessionId,
        'toolrail.turn.index': 0,
        'toolrail.model.finish_reason': 'tool-calls',
      });
      expect(modelSpans[2]?.attributes['gen_ai.response.finish_reasons']).toEqual(['end_turn']);
      // The recorded usage of each response, as the provider reported it.
      expect(
        modelSpans.map((span) => [
          span.attributes['gen_ai.usage.input_tokens'],
          span.attributes['gen_ai.usage.output_tokens'],
        ]),
      ).toEqual([
        [502, 71],
        [720, 64],
        [431, 19],
      ]);

      const toolSpans = spans.filter((span) => span.name === 'RunActivity:executeTool');
      expect(toolSpans.map((span) => span.attributes)).toEqual([
        expect.objectContaining({
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': 'create_ticket',
          'gen_ai.tool.call.id': 'toolu_01Ef5gHi7jKl9mNo1pQr3sTu',
          'gen_ai.conversation.id': sessionId,
          'toolrail.tool.name': 'create_ticket',
        }),
      ]);

      const modelCalls = spans.filter((span: ReadableSpan) => span.name === 'toolrail.model_call');
      expect(modelCalls.map((span) => span.attributes['toolrail.model.finish_reason']).sort()).toEqual([
        'stop',
        'tool-calls',
        'tool-calls',
      ]);
      expect(modelCalls.every((span) => typeof span.attributes['toolrail.usage.input_tokens'] === 'number')).toBe(true);
    } finally {
      await server.close();
    }
  });
});
