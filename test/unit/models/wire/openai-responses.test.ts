import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationMessage } from '../../../../src/models';
import { loadWireFixture, type WireFixture, type WireServer } from '../../../helpers/wire-server';
import { modelOverWire, type ModelOverWire } from './model-over-wire';
import { refusalText, ticketRequest } from './support-desk';

const fixture = (name: string): WireFixture => loadWireFixture('openai-responses', name);

describe('the OpenAI Responses API through @ai-sdk/openai (recorded responses)', () => {
  let server: WireServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  async function over(...args: Parameters<typeof modelOverWire>): Promise<ModelOverWire> {
    const wire = await modelOverWire(...args);
    server = wire.server;
    return wire;
  }

  it('sends the conversation to /responses and reads the answer and its usage', async () => {
    const wire = await over('openai-responses', [fixture('text-answer')], { temperature: 0.3, maxOutputTokens: 300 });
    const { response, responseId, responseModel } = await wire.call(ticketRequest({ tools: [] }));
    expect(response).toEqual({
      text: 'Ticket T-1042 is open, assigned to Dana, and marked high priority.',
      toolCalls: [],
      finishReason: 'stop',
      usage: { inputTokens: 735, outputTokens: 19, cachedInputTokens: 0, reasoningTokens: 0 },
    });
    expect({ responseId, responseModel }).toEqual({
      responseId: 'resp_68f1a2b3c4d5e6f70819a2b3c4d5e6f7',
      responseModel: 'gpt-4.1-2025-04-14',
    });
    const [received] = wire.server.requests;
    expect(received?.path).toBe('/v1/responses');
    expect(received?.body).toMatchObject({
      model: 'test-model',
      temperature: 0.3,
      max_output_tokens: 300,
      input: [
        { role: 'system', content: 'You are a support desk agent.' },
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'The printer is on fire. File a high-priority ticket and give it to Dana.' },
          ],
        },
      ],
    });
  });

  it('returns parallel function calls in order, and sends tools strict where the schema allows it', async () => {
    const wire = await over('openai-responses', [fixture('parallel-tool-calls')]);
    const { response } = await wire.call(ticketRequest());
    expect(response).toMatchObject({ finishReason: 'tool-calls' });
    expect(response.toolCalls).toEqual([
      { id: 'call_Ab1cDe3fGh5iJk7lMn9oPq1r', name: 'lookup_order', args: { orderId: 'A-1001' } },
      { id: 'call_Bc2dEf4gHi6jKl8mNo0pQr2s', name: 'lookup_order', args: { orderId: 'B-2002' } },
      { id: 'call_Cd3eFg5hIj7kLm9nOp1qRs3t', name: 'get_customer', args: { customerId: 'C-77' } },
    ]);
    expect(wire.server.requests[0]?.body).toMatchObject({
      tools: [
        { type: 'function', name: 'create_ticket', strict: true },
        { type: 'function', name: 'assign_ticket', strict: false },
      ],
    });
  });

  it('carries a refused call back as an error function output on the next request', async () => {
    const wire = await over('openai-responses', [fixture('single-tool-call'), fixture('refused-call-correction')]);
    const first = await wire.call(ticketRequest());
    const [refused] = first.response.toolCalls;
    if (!refused) throw new Error('the first response has no tool call');
    const messages: ConversationMessage[] = [
      ...ticketRequest().messages,
      first.assistant,
      { role: 'tool', callId: refused.id, toolName: refused.name, content: refusalText, isError: true },
    ];
    const second = await wire.call(ticketRequest({ messages, turn: 1 }));
    expect(second.response).toMatchObject({
      text: "The ticket has to exist first, so I'll create it.",
      toolCalls: [{ name: 'create_ticket', args: { title: 'Printer on fire', priority: 'high' } }],
    });
    const input = (wire.server.requests[1]?.body as { input: unknown[] }).input;
    expect(input.slice(2)).toEqual([
      expect.objectContaining({ type: 'function_call', call_id: refused.id, name: 'assign_ticket' }),
      { type: 'function_call_output', call_id: refused.id, output: JSON.stringify({ error: refusalText }) },
    ]);
  });

  it('reads empty arguments as {}', async () => {
    const wire = await over('openai-responses', [fixture('empty-arguments')]);
    const { response } = await wire.call(ticketRequest());
    expect(response.toolCalls).toEqual([{ id: 'call_De4fGh6iJk8lMn0oPq2rSt4u', name: 'list_queues', args: {} }]);
  });

  it('says a function call was cut off by the output limit', async () => {
    const wire = await over('openai-responses', [fixture('tool-call-cut-off')]);
    const { response } = await wire.call(ticketRequest());
    expect(response).toMatchObject({ finishReason: 'length', rawFinishReason: 'max_output_tokens' });
  });

  it('tells a refusal from the content filter', async () => {
    const wire = await over('openai-responses', [fixture('refusal'), fixture('content-filter')]);
    expect((await wire.call(ticketRequest())).response).toMatchObject({
      text: "I'm sorry, but I can't help with that request.",
      finishReason: 'refusal',
    });
    expect((await wire.call(ticketRequest({ turn: 1 }))).response).toMatchObject({
      text: 'Here is how to',
      finishReason: 'content-filter',
      rawFinishReason: 'content_filter',
    });
  });

  it('keeps reasoning with its item id, counts cached and reasoning tokens, and sends the reasoning back', async () => {
    const wire = await over('openai-responses', [fixture('reasoning'), fixture('text-answer')]);
    const first = await wire.call(ticketRequest());
    expect(first.response.usage).toEqual({
      inputTokens: 2310,
      outputTokens: 212,
      cachedInputTokens: 1920,
      reasoningTokens: 192,
    });
    const [reasoning] = first.assistant.reasoning ?? [];
    expect(reasoning?.text).toBe(
      '**Checking the ticket first**\n\nAssigning needs an existing ticket; the user asked for both.',
    );
    expect(reasoning?.providerMetadata?.openai?.itemId).toBe('rs_68f1a33bc5d6970ab1c2f3a4b5c6d7e8');
    const [call] = first.response.toolCalls;
    if (!call) throw new Error('no call');
    const messages: ConversationMessage[] = [
      ...ticketRequest().messages,
      first.assistant,
      { role: 'tool', callId: call.id, toolName: call.name, content: '{"ticket_id":"T-1042"}', isError: false },
    ];
    await wire.call(ticketRequest({ messages, turn: 1 }));
    const input = JSON.stringify(wire.server.requests[1]?.body);
    expect(input).toContain('rs_68f1a33bc5d6970ab1c2f3a4b5c6d7e8');
  });

  it('fails a 429 with the wait the server asked for, and a 500 as retryable, one request each', async () => {
    const wire = await over('openai-responses', [fixture('rate-limited-429'), fixture('server-error-500')]);
    expect(await wire.failure(ticketRequest())).toMatchObject({ code: 'RATE_LIMITED', retryAfterMs: 20_000 });
    expect(await wire.failure(ticketRequest())).toMatchObject({ code: 'SERVER_ERROR', retryable: true, status: 500 });
    expect(wire.server.requests).toHaveLength(2);
  });

  it('says clearly that the context was too long, with a body and without one', async () => {
    const wire = await over('openai-responses', [
      fixture('context-too-long-400'),
      fixture('context-too-long-400-no-body'),
    ]);
    const withBody = await wire.failure(ticketRequest());
    expect(withBody).toMatchObject({ code: 'BAD_REQUEST', retryable: false });
    expect(withBody.message).toContain('Your input exceeds the context window of this model.');
    expect(withBody.message).toContain('lower the model setting contextBudgetBytes');
    const withoutBody = await wire.failure(ticketRequest());
    expect(withoutBody.message).toContain('HTTP 400 Bad Request without a response body');
    expect(withoutBody.message).toContain('lower the model setting contextBudgetBytes');
  });

  it('aborts a streamed response mid-stream, after its first text deltas', async () => {
    const wire = await over('openai-responses', [fixture('streamed-text-held')]);
    const controller = new AbortController();
    const deltas: string[] = [];
    const call = wire.call(ticketRequest(), {
      stream: true,
      signal: controller.signal,
      onTextDelta: (delta) => deltas.push(delta),
    });
    await expect.poll(() => deltas).toEqual(['Let me', ' think']);
    controller.abort(new Error('interrupted by the user'));
    await expect(call).rejects.toMatchObject({ code: 'ABORTED' });
    await wire.server.heldConnectionClosed;
  });
});
