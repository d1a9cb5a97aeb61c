import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationMessage } from '../../../../src/models';
import { loadWireFixture, type WireFixture, type WireServer } from '../../../helpers/wire-server';
import { modelOverWire, type ModelOverWire } from './model-over-wire';
import { refusalText, supportDeskTools, ticketRequest } from './support-desk';

const fixture = (name: string): WireFixture => loadWireFixture('openai', name);
const compatible = (name: string): WireFixture => loadWireFixture('openai-compatible', name);

describe('OpenAI chat completions through @ai-sdk/openai (recorded responses)', () => {
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

  it('sends the conversation and every generation setting, and reads the answer and its usage', async () => {
    const wire = await over('openai', [fixture('text-answer')], {
      temperature: 0.2,
      maxOutputTokens: 256,
      topP: 0.9,
      stopSequences: ['END'],
      seed: 7,
      providerOptions: { openai: { user: 'support-desk' } },
    });
    const { response } = await wire.call(ticketRequest({ tools: [] }));
    expect(response).toEqual({
      text: 'Ticket T-1042 is open, assigned to Dana, and marked high priority.',
      toolCalls: [],
      finishReason: 'stop',
      rawFinishReason: 'stop',
      usage: { inputTokens: 412, outputTokens: 17, cachedInputTokens: 0, reasoningTokens: 0 },
    });
    const [received] = wire.server.requests;
    expect(received?.path).toBe('/v1/chat/completions');
    expect(received?.headers.authorization).toBe('Bearer no-key');
    expect(received?.body).toEqual({
      model: 'test-model',
      messages: [
        { role: 'system', content: 'You are a support desk agent.' },
        { role: 'user', content: 'The printer is on fire. File a high-priority ticket and give it to Dana.' },
      ],
      temperature: 0.2,
      max_tokens: 256,
      top_p: 0.9,
      stop: ['END'],
      seed: 7,
      user: 'support-desk',
    });
  });

  it('sends tools as function tools, strict only where the schema allows it, and reads a tool call', async () => {
    const wire = await over('openai', [fixture('single-tool-call')]);
    const { response } = await wire.call(ticketRequest());
    expect(response).toMatchObject({
      toolCalls: [
        { id: 'call_Vx2fJ3n8kQm4pR7tY1wZ0aBc', name: 'assign_ticket', args: { ticketId: 'T-1042', assignee: 'dana' } },
      ],
      finishReason: 'tool-calls',
    });
    expect(wire.server.requests[0]?.body).toMatchObject({
      tools: [
        {
          type: 'function',
          function: { name: 'create_ticket', parameters: supportDeskTools[0]?.inputSchema, strict: true },
        },
        { type: 'function', function: { name: 'assign_ticket', strict: false } },
      ],
      tool_choice: 'auto',
    });
    expect(wire.server.requests[0]?.body).not.toHaveProperty('parallel_tool_calls');
  });

  it('asks for one call at a time with parallelToolCalls: false', async () => {
    const wire = await over('openai', [fixture('single-tool-call')], { parallelToolCalls: false });
    await wire.call(ticketRequest());
    expect(wire.server.requests[0]?.body).toMatchObject({ parallel_tool_calls: false });
  });

  it('returns parallel tool calls in the order the model wrote them', async () => {
    const wire = await over('openai', [fixture('parallel-tool-calls')]);
    const { response } = await wire.call(ticketRequest());
    expect(response.toolCalls).toEqual([
      { id: 'call_3kLm8NpQ2rSt5UvW7xYz9AbC', name: 'lookup_order', args: { orderId: 'A-1001' } },
      { id: 'call_9DeF1gHi3JkL5mNo7PqR2sTu', name: 'lookup_order', args: { orderId: 'B-2002' } },
      { id: 'call_6VwX8yZa0BcD2eFg4HiJ6kLm', name: 'get_customer', args: { customerId: 'C-77' } },
    ]);
  });

  it('carries a refused call back as an error tool result on the next request', async () => {
    const wire = await over('openai', [fixture('single-tool-call'), fixture('refused-call-correction')]);
    const first = await wire.call(ticketRequest());
    const [refused] = first.response.toolCalls;
    if (!refused) throw new Error('the first response has no tool call');
    const messages: ConversationMessage[] = [
      ...ticketRequest().messages,
      first.assistant,
      { role: 'tool', callId: refused.id, toolName: refused.name, content: refusalText, isError: true },
    ];
    const second = await wire.call(ticketRequest({ messages, turn: 1 }));
    expect(second.response.toolCalls.map((call) => call.name)).toEqual(['create_ticket']);
    expect(wire.server.requests[1]?.body).toMatchObject({
      messages: [
        { role: 'system' },
        { role: 'user' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: refused.id,
              type: 'function',
              function: { name: 'assign_ticket', arguments: '{"ticketId":"T-1042","assignee":"dana"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: refused.id, content: JSON.stringify({ error: refusalText }) },
      ],
    });
  });

  it('keeps invalid arguments as their raw text and reads an empty string as {}', async () => {
    const wire = await over('openai', [fixture('malformed-arguments')]);
    const { response } = await wire.call(ticketRequest());
    expect(response.toolCalls.map((call) => call.args)).toEqual([
      '{"title": "Printer on fire", "priority": "hi',
      {},
      '["A-1001"]',
    ]);
  });

  it('reads arguments a compatible server sends as JSON objects or empty strings (llama.cpp, TGI)', async () => {
    const wire = await over('openai-compatible', [compatible('single-tool-call'), compatible('empty-arguments')]);
    const first = await wire.call(ticketRequest());
    expect(first.response).toMatchObject({
      toolCalls: [{ name: 'assign_ticket', args: { ticketId: 'T-1042', assignee: 'dana' } }],
      finishReason: 'tool-calls',
    });
    const second = await wire.call(ticketRequest({ turn: 1 }));
    expect(second.response.toolCalls.map((call) => [call.name, call.args])).toEqual([
      ['list_queues', {}],
      ['lookup_order', {}],
    ]);
    // One request each: nothing failed and nothing was retried.
    expect(wire.server.requests).toHaveLength(2);
  });

  it('says a tool call was cut off by the output limit', async () => {
    const wire = await over('openai', [fixture('tool-call-cut-off')]);
    const { response } = await wire.call(ticketRequest());
    expect(response).toMatchObject({ finishReason: 'length', rawFinishReason: 'length' });
    expect(response.toolCalls.map((call) => call.name)).toEqual(['create_ticket']);
  });

  it('tells a refusal from the content filter', async () => {
    const wire = await over('openai', [fixture('refusal'), fixture('content-filter')]);
    expect((await wire.call(ticketRequest())).response).toMatchObject({
      text: "I'm sorry, but I can't help with that request.",
      finishReason: 'refusal',
    });
    expect((await wire.call(ticketRequest({ turn: 1 }))).response).toEqual({
      toolCalls: [],
      finishReason: 'content-filter',
      rawFinishReason: 'content_filter',
      usage: { inputTokens: 449, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 },
    });
  });

  it('reads cached input tokens and reasoning tokens', async () => {
    const wire = await over('openai', [fixture('cached-usage')]);
    const { response } = await wire.call(ticketRequest());
    expect(response.usage).toEqual({
      inputTokens: 2310,
      outputTokens: 212,
      cachedInputTokens: 1920,
      reasoningTokens: 192,
    });
  });

  it('fails a 429 with the wait the server asked for, after one request', async () => {
    const wire = await over('openai', [fixture('rate-limited-429')]);
    const error = await wire.failure(ticketRequest());
    expect(error).toMatchObject({ code: 'RATE_LIMITED', retryable: true, retryAfterMs: 20_000, status: 429 });
    expect(error.message).toContain('Rate limit reached for gpt-4.1');
    expect(wire.server.requests).toHaveLength(1);
  });

  it('fails each of five 500s in a row as a retryable server error, one request each', async () => {
    const wire = await over(
      'openai',
      Array.from({ length: 5 }, () => fixture('server-error-500')),
    );
    for (let attempt = 0; attempt < 5; attempt++) {
      const error = await wire.failure(ticketRequest());
      expect(error).toMatchObject({ code: 'SERVER_ERROR', retryable: true, status: 500 });
    }
    expect(wire.server.requests).toHaveLength(5);
  });

  it('says clearly that the context was too long, with the server’s message', async () => {
    const wire = await over('openai', [fixture('context-too-long-400')]);
    const error = await wire.failure(ticketRequest());
    expect(error).toMatchObject({ code: 'BAD_REQUEST', retryable: false, status: 400 });
    expect(error.message).toBe(
      "openai.chat: HTTP 400 invalid_request_error/context_length_exceeded: This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens. Please reduce the length of the messages. (the conversation may be longer than the model's context window: lower the model setting contextBudgetBytes)",
    );
  });

  it('says what a 400 without a body means instead of "400 status code (no body)"', async () => {
    const wire = await over('openai-compatible', [compatible('context-too-long-400-no-body')]);
    const error = await wire.failure(ticketRequest());
    expect(error).toMatchObject({ code: 'BAD_REQUEST', retryable: false, status: 400 });
    expect(error.message).toBe(
      "openai.chat: HTTP 400 Bad Request without a response body: the server gave no reason; the conversation may be longer than the model's context window: lower the model setting contextBudgetBytes",
    );
  });

  it('streams text deltas and a tool call, with usage', async () => {
    const wire = await over('openai', [fixture('streamed-tool-call')]);
    const deltas: string[] = [];
    const { response } = await wire.call(ticketRequest(), { stream: true, onTextDelta: (delta) => deltas.push(delta) });
    expect(deltas).toEqual(["I'll", ' file', ' the', ' ticket', ' first.']);
    expect(response).toMatchObject({
      text: "I'll file the ticket first.",
      toolCalls: [
        {
          id: 'call_Sb5tUv7wXy9zAb1cDe3fGh5i',
          name: 'create_ticket',
          args: { title: 'Printer on fire', priority: 'high' },
        },
      ],
      finishReason: 'tool-calls',
      usage: { inputTokens: 468, outputTokens: 41 },
    });
    expect(wire.server.requests[0]?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('aborts a streamed response mid-stream: the call rejects with ABORTED and the connection closes', async () => {
    const wire = await over('openai', [fixture('streamed-text-held')]);
    const controller = new AbortController();
    const call = wire.failure(ticketRequest(), { stream: true, signal: controller.signal });
    await wire.server.held;
    controller.abort(new Error('interrupted by the user'));
    const error = await call;
    expect(error).toMatchObject({ code: 'ABORTED', retryable: false });
    await wire.server.heldConnectionClosed;
  });

  it('hands the text it has so far to onTextDelta before an abort', async () => {
    const wire = await over('openai', [fixture('streamed-text-held')]);
    const controller = new AbortController();
    const deltas: string[] = [];
    const call = wire.call(ticketRequest(), {
      stream: true,
      signal: controller.signal,
      onTextDelta: (delta) => deltas.push(delta),
    });
    await expect.poll(() => deltas).toEqual(["I'll", ' file']);
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: 'ABORTED' });
  });
});
