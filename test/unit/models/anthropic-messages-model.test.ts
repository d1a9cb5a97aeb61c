import { afterEach, describe, expect, it } from 'vitest';
import {
  createAnthropicMessagesModel,
  ModelError,
  type AnthropicMessagesModelOptions,
  type ConversationMessage,
  type ModelAdapter,
} from '../../../src/models';
import { refusalText, supportDeskTools, ticketRequest } from './support-desk';
import { HOLD, loadWireFixture, startWireServer, type WireFixture, type WireServer } from './wire-server';

const fixture = (name: string): WireFixture => loadWireFixture('anthropic', name);
const live = (): AbortSignal => new AbortController().signal;
const messagesOf = (body: unknown): unknown =>
  typeof body === 'object' && body !== null && 'messages' in body ? body.messages : undefined;

describe('createAnthropicMessagesModel', () => {
  let server: WireServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function modelReplaying(
    replies: (WireFixture | typeof HOLD)[],
    options: Partial<AnthropicMessagesModelOptions> = {},
  ): Promise<{ model: ModelAdapter; server: WireServer }> {
    server = await startWireServer(replies);
    return { model: createAnthropicMessagesModel({ apiKey: 'sk-ant-test', baseUrl: server.url, ...options }), server };
  }

  async function rejection(promise: Promise<unknown>): Promise<ModelError> {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    if (!ModelError.isInstance(error)) throw new Error(`expected a ModelError, got ${String(error)}`);
    return error;
  }

  it('returns the text answer and token usage of a plain message', async () => {
    const { model, server } = await modelReplaying([fixture('text-answer')]);
    const response = await model.complete(ticketRequest({ tools: [], temperature: 0.2 }), { signal: live() });
    expect(response).toEqual({
      text: 'Ticket T-1042 is open, assigned to Dana, and marked high priority.',
      toolCalls: [],
      stopReason: 'end',
      usage: { inputTokens: 431, outputTokens: 19 },
    });
    const [received] = server.requests;
    expect(received?.method).toBe('POST');
    expect(received?.path).toBe('/v1/messages');
    expect(received?.headers['anthropic-version']).toEqual(expect.any(String));
    expect(received?.body).toEqual({
      model: 'test-model',
      max_tokens: 4096,
      system: 'You are a support desk agent.',
      messages: [{ role: 'user', content: 'The printer is on fire. File a high-priority ticket and give it to Dana.' }],
      temperature: 0.2,
    });
  });

  it('sends tools with their input schemas and maps a tool_use block to a single tool call', async () => {
    const { model, server } = await modelReplaying([fixture('single-tool-call')]);
    const response = await model.complete(ticketRequest({ maxOutputTokens: 1024 }), { signal: live() });
    expect(response).toEqual({
      text: "I'll assign the ticket to Dana.",
      toolCalls: [
        { id: 'toolu_01A09q90qw90lq917835lq9', name: 'assign_ticket', args: { ticketId: 'T-1042', assignee: 'dana' } },
      ],
      stopReason: 'tool_calls',
      usage: { inputTokens: 502, outputTokens: 71 },
    });
    expect(server.requests[0]?.body).toMatchObject({
      max_tokens: 1024,
      tools: [
        {
          name: 'create_ticket',
          description: 'Open a support ticket.',
          input_schema: supportDeskTools[0]?.inputSchema,
        },
        {
          name: 'assign_ticket',
          description: 'Assign an existing ticket to an agent.',
          input_schema: supportDeskTools[1]?.inputSchema,
        },
      ],
    });
    expect(server.requests[0]?.body).not.toHaveProperty('tool_choice');
    expect(server.requests[0]?.body).not.toHaveProperty('tools.0.strict');
  });

  it('marks strict-compatible tools strict and disables parallel calls when configured to', async () => {
    const { model, server } = await modelReplaying([fixture('single-tool-call')], {
      strictTools: 'auto',
      parallelToolCalls: false,
    });
    await model.complete(ticketRequest(), { signal: live() });
    const body = server.requests[0]?.body;
    expect(body).toMatchObject({
      tools: [{ name: 'create_ticket', strict: true }, { name: 'assign_ticket' }],
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
    });
    expect(body).not.toHaveProperty('tools.1.strict');
  });

  it('returns parallel tool calls in the order the model wrote them', async () => {
    const { model } = await modelReplaying([fixture('parallel-tool-calls')]);
    const response = await model.complete(ticketRequest(), { signal: live() });
    expect(response.text).toBe('Let me look up both orders and the customer at once.');
    expect(response.stopReason).toBe('tool_calls');
    expect(response.toolCalls).toEqual([
      { id: 'toolu_01Kd7fPq2sWx4yZa6bCe8gHi', name: 'lookup_order', args: { orderId: 'A-1001' } },
      { id: 'toolu_01Lm9nOp1qRs3tUv5wXy7zAb', name: 'lookup_order', args: { orderId: 'B-2002' } },
      { id: 'toolu_01Cd2eFg4hIj6kLm8nOp0qRs', name: 'get_customer', args: { customerId: 'C-77' } },
    ]);
  });

  it('carries a refused call back to the model as an is_error tool_result on the next request', async () => {
    const { model, server } = await modelReplaying([fixture('single-tool-call'), fixture('refused-call-correction')]);
    const first = await model.complete(ticketRequest(), { signal: live() });
    const [refused] = first.toolCalls;
    if (!refused || first.text === undefined) throw new Error('the first response lacks its text or tool call');
    const messages: ConversationMessage[] = [
      ...ticketRequest().messages,
      { role: 'assistant', text: first.text, toolCalls: first.toolCalls },
      { role: 'tool', callId: refused.id, toolName: refused.name, content: refusalText, isError: true },
    ];
    const second = await model.complete(ticketRequest({ messages, turn: 1 }), { signal: live() });

    expect(messagesOf(server.requests[1]?.body)).toEqual([
      { role: 'user', content: 'The printer is on fire. File a high-priority ticket and give it to Dana.' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: "I'll assign the ticket to Dana." },
          {
            type: 'tool_use',
            id: 'toolu_01A09q90qw90lq917835lq9',
            name: 'assign_ticket',
            input: { ticketId: 'T-1042', assignee: 'dana' },
          },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_01A09q90qw90lq917835lq9',
            content: 'assign_ticket was refused: call create_ticket first.',
            is_error: true,
          },
        ],
      },
    ]);
    expect(second).toEqual({
      text: "The ticket has to exist first, so I'll create it.",
      toolCalls: [
        {
          id: 'toolu_01Ef5gHi7jKl9mNo1pQr3sTu',
          name: 'create_ticket',
          args: { title: 'Printer on fire', priority: 'high' },
        },
      ],
      stopReason: 'tool_calls',
      usage: { inputTokens: 88 + 120 + 512, outputTokens: 64 },
    });
  });

  it('maps a tool_use block with empty input to a call with {} arguments', async () => {
    const { model } = await modelReplaying([fixture('no-argument-tool-call')]);
    const response = await model.complete(ticketRequest(), { signal: live() });
    expect(response).toMatchObject({
      toolCalls: [{ id: 'toolu_01Gh7iJk9lMn1oPq3rSt5uVw', name: 'list_queues', args: {} }],
      stopReason: 'tool_calls',
    });
    expect(response).not.toHaveProperty('text');
  });

  it('reports a 400 as a non-retryable BAD_REQUEST carrying the error type and message', async () => {
    const { model } = await modelReplaying([fixture('bad-request-400')]);
    const error = await rejection(model.complete(ticketRequest(), { signal: live() }));
    expect(error).toMatchObject({ code: 'BAD_REQUEST', retryable: false, status: 400, provider: 'anthropic' });
    expect(error.message).toBe(
      'anthropic: 400 invalid_request_error: messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_01A09q90qw90lq917835lq9. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
    );
  });

  it('reports a 401 as a non-retryable AUTHENTICATION error', async () => {
    const { model } = await modelReplaying([fixture('authentication-401')]);
    const error = await rejection(model.complete(ticketRequest(), { signal: live() }));
    expect(error).toMatchObject({ code: 'AUTHENTICATION', retryable: false, status: 401 });
  });

  it('reports a 500 as a retryable SERVER_ERROR and leaves the retry to Temporal', async () => {
    const { model, server } = await modelReplaying([fixture('server-error-500'), fixture('text-answer')]);
    const error = await rejection(model.complete(ticketRequest(), { signal: live() }));
    expect(error).toMatchObject({ code: 'SERVER_ERROR', retryable: true, status: 500 });
    expect(server.requests).toHaveLength(1);
  });

  it('reports a 529 overloaded as a retryable SERVER_ERROR', async () => {
    const { model } = await modelReplaying([fixture('overloaded-529')]);
    const error = await rejection(model.complete(ticketRequest(), { signal: live() }));
    expect(error).toMatchObject({ code: 'SERVER_ERROR', retryable: true, status: 529 });
    expect(error.message).toContain('overloaded_error: Overloaded');
  });

  it('reports a 429 as RATE_LIMITED with the retry-after in milliseconds', async () => {
    const { model, server } = await modelReplaying([fixture('rate-limited-429'), fixture('text-answer')]);
    const error = await rejection(model.complete(ticketRequest(), { signal: live() }));
    expect(error).toMatchObject({ code: 'RATE_LIMITED', retryable: true, retryAfterMs: 12_000, status: 429 });
    expect(error.message).toContain('rate_limit_error: This request would exceed the rate limit');
    expect(server.requests).toHaveLength(1);
  });

  it('closes a held request when the signal aborts and rejects with ABORTED', async () => {
    const { model, server } = await modelReplaying([HOLD]);
    const controller = new AbortController();
    const call = rejection(model.complete(ticketRequest(), { signal: controller.signal }));
    await server.held;
    controller.abort(new Error('interrupted by the user'));
    const error = await call;
    expect(error).toMatchObject({ code: 'ABORTED', retryable: false });
    await expect(server.heldConnectionClosed).resolves.toBeUndefined();
  });

  it('rejects with ABORTED without sending anything when the signal is already aborted', async () => {
    const { model, server } = await modelReplaying([fixture('text-answer')]);
    const error = await rejection(model.complete(ticketRequest(), { signal: AbortSignal.abort() }));
    expect(error.code).toBe('ABORTED');
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a tool whose input schema is not an object schema without calling the API', async () => {
    const { model, server } = await modelReplaying([fixture('text-answer')]);
    const tools = [{ name: 'echo', description: 'Echo.', inputSchema: { type: 'string' } }];
    const error = await rejection(model.complete(ticketRequest({ tools }), { signal: live() }));
    expect(error).toMatchObject({ code: 'BAD_REQUEST', retryable: false });
    expect(error.message).toContain('tool "echo"');
    expect(server.requests).toHaveLength(0);
  });

  it('accepts a large max_tokens without the client refusing a non-streaming call', async () => {
    const { model, server } = await modelReplaying([fixture('text-answer')]);
    await model.complete(ticketRequest({ maxOutputTokens: 64_000 }), { signal: live() });
    expect(server.requests[0]?.body).toMatchObject({ max_tokens: 64_000 });
  });
});
