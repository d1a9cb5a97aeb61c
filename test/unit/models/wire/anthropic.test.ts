import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConversationMessage } from '../../../../src/models';
import { loadWireFixture, type WireFixture, type WireServer } from '../../../helpers/wire-server';
import { modelOverWire, type ModelOverWire } from './model-over-wire';
import { refusalText, ticketRequest } from './support-desk';

const fixture = (name: string): WireFixture => loadWireFixture('anthropic', name);

describe('Anthropic messages through @ai-sdk/anthropic (recorded responses)', () => {
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

  it('sends the conversation to {baseUrl}/v1/messages with the settings, and reads the answer and usage', async () => {
    const wire = await over('anthropic', [fixture('text-answer')], {
      temperature: 0.5,
      maxOutputTokens: 512,
      topK: 40,
      stopSequences: ['END'],
    });
    const { response } = await wire.call(ticketRequest({ tools: [] }));
    expect(response).toMatchObject({
      text: 'Ticket T-1042 is open, assigned to Dana, and marked high priority.',
      toolCalls: [],
      finishReason: 'stop',
      rawFinishReason: 'end_turn',
    });
    const [received] = wire.server.requests;
    expect(received?.path).toBe('/v1/messages');
    expect(received?.headers['x-api-key']).toBe('no-key');
    expect(received?.body).toMatchObject({
      model: 'test-model',
      max_tokens: 512,
      temperature: 0.5,
      top_k: 40,
      stop_sequences: ['END'],
      system: [{ type: 'text', text: 'You are a support desk agent.' }],
      messages: [
        {
          role: 'user',
          content: [{ type: 'text', text: 'The printer is on fire. File a high-priority ticket and give it to Dana.' }],
        },
      ],
    });
  });

  it('returns parallel tool_use blocks in order, and a call without arguments as {}', async () => {
    const wire = await over('anthropic', [fixture('parallel-tool-calls'), fixture('no-argument-tool-call')]);
    const { response } = await wire.call(ticketRequest());
    expect(response).toMatchObject({
      text: 'Let me look up both orders and the customer at once.',
      finishReason: 'tool-calls',
    });
    expect(response.toolCalls).toEqual([
      { id: 'toolu_01Kd7fPq2sWx4yZa6bCe8gHi', name: 'lookup_order', args: { orderId: 'A-1001' } },
      { id: 'toolu_01Lm9nOp1qRs3tUv5wXy7zAb', name: 'lookup_order', args: { orderId: 'B-2002' } },
      { id: 'toolu_01Cd2eFg4hIj6kLm8nOp0qRs', name: 'get_customer', args: { customerId: 'C-77' } },
    ]);
    const second = await wire.call(ticketRequest({ turn: 1 }));
    expect(second.response.toolCalls).toEqual([
      { id: 'toolu_01Gh7iJk9lMn1oPq3rSt5uVw', name: 'list_queues', args: {} },
    ]);
  });

  it('asks for one call at a time with parallelToolCalls: false', async () => {
    const wire = await over('anthropic', [fixture('single-tool-call')], { parallelToolCalls: false });
    await wire.call(ticketRequest());
    expect(wire.server.requests[0]?.body).toMatchObject({
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
    });
  });

  it('carries a refused call back as a tool_result with is_error on the next request', async () => {
    const wire = await over('anthropic', [fixture('single-tool-call'), fixture('refused-call-correction')]);
    const first = await wire.call(ticketRequest());
    const [refused] = first.response.toolCalls;
    if (!refused) throw new Error('the first response has no tool call');
    const messages: ConversationMessage[] = [
      ...ticketRequest().messages,
      first.assistant,
      { role: 'tool', callId: refused.id, toolName: refused.name, content: refusalText, isError: true },
    ];
    await wire.call(ticketRequest({ messages, turn: 1 }));
    expect(wire.server.requests[1]?.body).toMatchObject({
      messages: [
        { role: 'user' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: "I'll assign the ticket to Dana." },
            {
              type: 'tool_use',
              id: refused.id,
              name: 'assign_ticket',
              input: { ticketId: 'T-1042', assignee: 'dana' },
            },
          ],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: refused.id, is_error: true, content: refusalText }],
        },
      ],
    });
  });

  it('says a tool call was cut off by max_tokens', async () => {
    const wire = await over('anthropic', [fixture('tool-call-cut-off')]);
    const { response } = await wire.call(ticketRequest());
    expect(response).toMatchObject({ finishReason: 'length', rawFinishReason: 'max_tokens' });
    expect(response.toolCalls.map((call) => call.name)).toEqual(['create_ticket']);
  });

  it('reads a refusal and a paused turn', async () => {
    const wire = await over('anthropic', [fixture('refusal'), fixture('pause-turn')]);
    expect((await wire.call(ticketRequest())).response).toMatchObject({
      text: "I can't help with that.",
      finishReason: 'refusal',
      rawFinishReason: 'refusal',
    });
    expect((await wire.call(ticketRequest({ turn: 1 }))).response).toMatchObject({
      text: "I'm still reading the printer's service history.",
      finishReason: 'pause',
      rawFinishReason: 'pause_turn',
    });
  });

  it('keeps a thinking block with its signature, counts cache reads and writes, and sends the block back', async () => {
    const wire = await over('anthropic', [fixture('thinking'), fixture('text-answer')]);
    const first = await wire.call(ticketRequest());
    expect(first.response.usage).toEqual({
      inputTokens: 2212,
      outputTokens: 388,
      cachedInputTokens: 1800,
      cacheWriteInputTokens: 200,
    });
    const signature =
      'EqQBCkgIARABGAIiQL2wV7tY9uA1bC3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5zA7bC9dE1fG3hI5jK7lM9nO1pQ3rS5tU7vW9xY1zEgzA3bC5dE7fG9hI1jKaDMoA';
    expect(first.assistant.reasoning).toEqual([
      {
        text: 'The user wants a ticket and an assignment. Assigning needs an existing ticket, so create it first.',
        providerMetadata: { anthropic: { signature } },
      },
    ]);
    const [call] = first.response.toolCalls;
    if (!call) throw new Error('no call');
    const messages: ConversationMessage[] = [
      ...ticketRequest().messages,
      first.assistant,
      { role: 'tool', callId: call.id, toolName: call.name, content: '{"ticket_id":"T-1042"}', isError: false },
    ];
    await wire.call(ticketRequest({ messages, turn: 1 }));
    expect(wire.server.requests[1]?.body).toMatchObject({
      messages: [
        { role: 'user' },
        {
          role: 'assistant',
          content: [
            {
              type: 'thinking',
              thinking:
                'The user wants a ticket and an assignment. Assigning needs an existing ticket, so create it first.',
              signature,
            },
            { type: 'text', text: "I'll create the ticket first." },
            { type: 'tool_use', id: call.id, name: 'create_ticket' },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id }] },
      ],
    });
  });

  it('fails a 429 with the retry-after wait, and a 529 and a 500 as retryable, one request each', async () => {
    const wire = await over('anthropic', [
      fixture('rate-limited-429'),
      fixture('overloaded-529'),
      fixture('server-error-500'),
    ]);
    const limited = await wire.failure(ticketRequest());
    expect(limited).toMatchObject({ code: 'RATE_LIMITED', retryable: true, retryAfterMs: 12_000, status: 429 });
    expect(limited.message).toContain('HTTP 429 rate_limit_error: This request would exceed the rate limit');
    const overloaded = await wire.failure(ticketRequest());
    expect(overloaded).toMatchObject({ code: 'SERVER_ERROR', retryable: true, status: 529 });
    expect(overloaded.message).toBe('anthropic.messages: HTTP 529 overloaded_error: Overloaded');
    expect(await wire.failure(ticketRequest())).toMatchObject({ code: 'SERVER_ERROR', retryable: true, status: 500 });
    expect(wire.server.requests).toHaveLength(3);
  });

  it('says clearly that the prompt was too long, with a body and without one', async () => {
    const wire = await over('anthropic', [fixture('context-too-long-400'), fixture('context-too-long-400-no-body')]);
    const withBody = await wire.failure(ticketRequest());
    expect(withBody).toMatchObject({ code: 'BAD_REQUEST', retryable: false, status: 400 });
    expect(withBody.message).toBe(
      "anthropic.messages: HTTP 400 invalid_request_error: prompt is too long: 212043 tokens > 200000 maximum (the conversation may be longer than the model's context window: lower the model setting contextBudgetBytes)",
    );
    const withoutBody = await wire.failure(ticketRequest());
    expect(withoutBody.message).toContain('HTTP 400 Bad Request without a response body: the server gave no reason');
  });

  it('streams text deltas to the end', async () => {
    const wire = await over('anthropic', [fixture('streamed-text')]);
    const deltas: string[] = [];
    const { response } = await wire.call(ticketRequest(), { stream: true, onTextDelta: (delta) => deltas.push(delta) });
    expect(deltas).toEqual(['Let me', ' think about', ' the whole history of printers.']);
    expect(response).toMatchObject({
      text: 'Let me think about the whole history of printers.',
      finishReason: 'stop',
      usage: { inputTokens: 472, outputTokens: 15 },
    });
  });

  it('aborts a streamed response mid-stream: ABORTED, and the connection closes', async () => {
    const wire = await over('anthropic', [fixture('streamed-text-held')]);
    const controller = new AbortController();
    const deltas: string[] = [];
    const call = wire.call(ticketRequest(), {
      stream: true,
      signal: controller.signal,
      onTextDelta: (delta) => deltas.push(delta),
    });
    await expect.poll(() => deltas).toEqual(['Let me', ' think about']);
    controller.abort(new Error('interrupted by the user'));
    await expect(call).rejects.toMatchObject({ code: 'ABORTED' });
    await wire.server.heldConnectionClosed;
  });

  it('calls the demo’s model and one past its end of life without printing a warning', async () => {
    const warn = vi.spyOn(console, 'warn');
    const processWarnings: string[] = [];
    const onWarning = (warning: Error): void => void processWarnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      for (const model of ['claude-sonnet-5-5', 'claude-sonnet-4-5']) {
        const wire = await over('anthropic', [fixture('text-answer')], { model });
        const { response } = await wire.call(ticketRequest({ tools: [] }));
        expect(response.text).toContain('T-1042');
        expect(wire.server.requests[0]?.body).toMatchObject({ model });
        await wire.server.close();
        server = undefined;
      }
      expect(warn).not.toHaveBeenCalled();
      expect(processWarnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      warn.mockRestore();
    }
  });
});
