import { readFileSync } from 'node:fs';
import path from 'node:path';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolrailClient } from '../../../src/client/toolrail-client';
import { createScriptedModel, parallelToolCallsResponse, textResponse, toolCallResponse } from '../../../src/models';
import { createWorker } from '../../../src/worker/create-worker';
import { createSupportDeskTools } from '../../../examples/support-desk/support-desk-tools';
import { connectToHarness, uniqueName } from '../../harness/connect';
import type { HarnessConnections } from '../../harness/connect';
import { compileRules } from '../../helpers/compile-rules';
import { pollUntil } from '../../helpers/poll-until';

const rulesFile = path.resolve(__dirname, '../../../examples/support-desk/support-desk-rules.yaml');

/** The one span named `name` whose attributes include `attributes`; throws unless there is exactly one. */
function theSpan(spans: readonly ReadableSpan[], name: string, attributes: Record<string, unknown> = {}): ReadableSpan {
  const found = spans.filter(
    (span) => span.name === name && Object.entries(attributes).every(([key, value]) => span.attributes[key] === value),
  );
  if (found.length !== 1) throw new Error(`expected one ${name} ${JSON.stringify(attributes)}, found ${found.length}`);
  return found[0] as ReadableSpan;
}

function parentOf(spans: readonly ReadableSpan[], span: ReadableSpan): ReadableSpan | undefined {
  return spans.find((candidate) => candidate.spanContext().spanId === span.parentSpanId);
}

describe('session tracing with OpenTelemetry', () => {
  let connections: HarnessConnections;
  beforeAll(async () => {
    connections = await connectToHarness();
  });
  afterAll(async () => {
    await connections.close();
  });

  it('traces the session, each turn, model call and tool call, with the rule decisions as attributes', async () => {
    const exporter = new InMemorySpanExporter();
    const tracing = { spanProcessor: new SimpleSpanProcessor(exporter) };
    const model = createScriptedModel([
      toolCallResponse('assign_ticket', { ticket_id: 'T-0001', agent: 'sam' }, { id: 'early-assign' }),
      toolCallResponse('create_ticket', { customer: 'ada@example.com', subject: 'Broken mug' }),
      parallelToolCallsResponse([
        { id: 'who', name: 'lookup_customer', args: { email: 'ada@example.com' } },
        { id: 'kb', name: 'search_knowledge_base', args: { query: 'broken mug' } },
      ]),
      textResponse('Ticket T-0001 is open.'),
    ]);
    const taskQueue = uniqueName('traced');
    const worker = await createWorker({
      connection: connections.nativeConnection,
      namespace: connections.namespace,
      taskQueue,
      tools: createSupportDeskTools(),
      scriptedModels: { desk: model },
      tracing,
    });
    const client = new ToolrailClient({ client: connections.client, taskQueue, tracing });
    const sessionId = uniqueName('traced-session');
    const spans = await worker.runUntil(async () => {
      const session = await client.startSession({
        sessionId,
        rules: compileRules(readFileSync(rulesFile, 'utf8'), { file: rulesFile }),
        model: { provider: 'scripted', model: 'desk' },
        firstMessage: 'Open a ticket for ada@example.com about a broken mug.',
        limits: { closeWhenIdle: true },
      });
      await session.result();
      // Workflow spans reach the processor through a sink after their workflow task.
      return pollUntil(
        () => Promise.resolve(exporter.getFinishedSpans()),
        (finished) => finished.some((span) => span.name === 'RunWorkflow:agentSession'),
      );
    });

    const start = theSpan(spans, 'StartWorkflow:agentSession');
    const session = theSpan(spans, 'RunWorkflow:agentSession');
    expect(parentOf(spans, session)).toBe(start);
    expect(new Set(spans.map((span) => span.spanContext().traceId))).toEqual(new Set([start.spanContext().traceId]));

    const turns = spans.filter((span) => span.name === 'toolrail.turn');
    expect(turns.map((turn) => turn.attributes['toolrail.turn.index']).sort()).toEqual([0, 1, 2, 3]);
    for (const turn of turns) {
      expect(parentOf(spans, turn)).toBe(session);
      expect(turn.attributes['toolrail.session.id']).toBe(sessionId);
      const modelCalls = spans.filter((span) => span.name === 'toolrail.model_call' && parentOf(spans, span) === turn);
      expect(modelCalls.map((call) => call.attributes['toolrail.tools.visible_count'])).toEqual([
        turn.attributes['toolrail.tools.visible_count'],
      ]);
    }

    // Turn 0: the rules show only the tools whose prerequisites hold, and block the early assign.
    const first = theSpan(spans, 'toolrail.turn', { 'toolrail.turn.index': 0 });
    expect(first.attributes['toolrail.tools.visible']).not.toContain('assign_ticket');
    expect(first.attributes['toolrail.tools.visible_count']).toBe(
      (first.attributes['toolrail.tools.visible'] as string[]).length,
    );
    expect(first.attributes).toMatchObject({
      'toolrail.run.index': 1,
      'toolrail.calls.proposed': 1,
      'toolrail.calls.allowed': 0,
      'toolrail.calls.blocked': 1,
      'toolrail.calls.blocked_tools': ['assign_ticket'],
    });
    expect(first.attributes['toolrail.calls.blocked_reasons']).toEqual([
      expect.stringMatching(/^assign_ticket: \[prerequisite_not_met\] /),
    ]);
    const blocked = theSpan(spans, 'toolrail.tool_call', { 'toolrail.tool.call_id': 'early-assign' });
    expect(parentOf(spans, blocked)).toBe(first);
    expect(blocked.attributes).toMatchObject({
      'toolrail.tool.name': 'assign_ticket',
      'toolrail.verdict': 'blocked',
      'toolrail.verdict.reason_codes': ['prerequisite_not_met'],
    });

    // Each model call sits in its turn, over Temporal's activity spans.
    const firstModelCall = spans.find(
      (span) => span.name === 'toolrail.model_call' && parentOf(spans, span) === first,
    ) as ReadableSpan;
    expect(firstModelCall.attributes).toMatchObject({
      'toolrail.model.provider': 'scripted',
      'toolrail.model.name': 'desk',
      'toolrail.model.outcome': 'tool_calls',
      'toolrail.model.tool_calls': 1,
      'toolrail.tools.visible_count': first.attributes['toolrail.tools.visible_count'],
    });
    const scheduleModel = spans.find(
      (span) => span.name === 'StartActivity:callModel' && parentOf(spans, span) === firstModelCall,
    ) as ReadableSpan;
    expect(scheduleModel).toBeDefined();
    expect(spans.some((span) => span.name === 'RunActivity:callModel' && parentOf(spans, span) === scheduleModel)).toBe(
      true,
    );

    // Turn 2: two read-only calls run together in one batch.
    const third = theSpan(spans, 'toolrail.turn', { 'toolrail.turn.index': 2 });
    const batch = theSpan(spans, 'toolrail.batch', { 'toolrail.batch.size': 2 });
    expect(parentOf(spans, batch)).toBe(third);
    expect(batch.attributes).toMatchObject({ 'toolrail.batch.index': 0, 'toolrail.batch.running': 2 });
    for (const callId of ['who', 'kb']) {
      const call = theSpan(spans, 'toolrail.tool_call', { 'toolrail.tool.call_id': callId });
      expect(parentOf(spans, call)).toBe(batch);
      expect(call.attributes).toMatchObject({
        'toolrail.verdict': 'allowed',
        'toolrail.batch.index': 0,
        'toolrail.batch.size': 2,
        'toolrail.tool.outcome': 'result',
      });
      const schedule = spans.find(
        (span) => span.name === 'StartActivity:executeTool' && parentOf(spans, span) === call,
      ) as ReadableSpan;
      expect(schedule, `${callId} is scheduled under its tool call span`).toBeDefined();
      expect(
        spans.some((span) => span.name === 'RunActivity:executeTool' && parentOf(spans, span) === schedule),
        `${callId} runs under its schedule span`,
      ).toBe(true);
    }
    expect(third.attributes).toMatchObject({ 'toolrail.calls.allowed': 2, 'toolrail.calls.blocked': 0 });
    expect(theSpan(spans, 'toolrail.turn', { 'toolrail.turn.index': 3 }).attributes['toolrail.run.end']).toBe(
      'answered',
    );
  });
});
