import { afterEach, describe, expect, it } from 'vitest';
import {
  createOpenAIChatModel,
  ModelError,
  type ConversationMessage,
  type ModelAdapter,
  type OpenAIChatModelOptions,
} from '../../../src/models';
import { refusalText, supportDeskTools, ticketRequest } from './support-desk';
import { HOLD, loadWireFixture, startWireServer, type WireFixture, type WireServer } from './wire-server';

const fixture = (name: string): WireFixture => loadWireFixture('openai', name);
const live = (): AbortSignal => new AbortController().signal;
const messagesOf = (body: unknown): unknown =>
  typeof body === 'object' && body !== null && 'messages' in body ? body.messages : undefined;

describe('createOpenAIChatModel', () => {
  let server: WireServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function modelReplaying(
    replies: (WireFixture | typeof HOLD)[],
    options: Partial<OpenAIChatModelOptions> = {},
  ): Promise<{ model: ModelAdapter; server: WireServer }> {
    server = await startWireServer(replies);
    return { model: createOpenAIChatModel({ apiKey: 'sk-test', baseUrl: `${server.url}/v1`, ...options }), server };
  }

  async function rejection(promise: Promise<unknown>): Promise<ModelError> {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    if (!ModelError.isInstance(error)) throw new Error(`expected a ModelError, got ${String(error)}`);
    return error;
  }

  it('returns the text answer and token usage of a plain completion', async () => {
    const { model, server } = await modelReplaying([fixture('text-answer')]);
    const response = await model.complete(ticketRequest({ tools: [], temperature: 0.2, maxOutputTokens: 256 }), {
      signal: live(),
    });
    expect(response).toEqual({
      text: 'Ticket T-1042 is open, assigned to Dana, and marked high priority.',
      toolCalls: [],
      stopReason: 'end',
      usage: { inputTokens: 412, outputTokens: 17 },
    });
    const [received] = server.requests;
    expect(received?.method).toBe('POST');
    expect(received?.path).toBe('/v1/chat/completions');
    expect(received?.headers.authorization).toBe('Bearer sk-test');
    expect(received?.body).toEqual({
      model: 'test-model',
      messages: [
        { role: 'system', content: 'You are a support desk agent.' },
        { role: 'user', content: 'The printer is on fire. File a high-priority ticket and give it to Dana.' },
      ],
      temperature: 0.2,
      max_completion_tokens: 256,
    });
  });

  it('sends tools as function tools, strict only where the schema allows it, and maps a single tool call', async () => {
    const { model, server } = await modelReplaying([fixture('single-tool-call')]);
    const response = await model.complete(ticketRequest(), { signal: live() });
    expect(response).toEqual({
      toolCalls: [
        { id: 'call_Vx2fJ3n8kQm4pR7tY1wZ0aBc', name: 'assign_ticket', args: { ticketId: 'T-1042', assignee: 'dana' } },
      ],
      stopReason: 'tool_calls',
      usage: { inputTokens: 468, outputTokens: 24 },
    });
    expect(server.requests[0]?.body).toMatchObject({
      tools: [
        {
          type: 'function',
          function: {
            name: 'create_ticket',
            description: 'Open a support ticket.',
            parameters: supportDeskTools[0]?.inputSchema,
            strict: true,
          },
        },
        {
          type: 'function',
          function: {
            name: 'assign_ticket',
            description: 'Assign an existing ticket to an agent.',
            parameters: supportDeskTools[1]?.inputSchema,
            strict: false,
          },
        },
      ],
    });
    expect(server.requests[0]?.body).not.toHaveProperty('parallel_tool_calls');
  });

  it('returns parallel tool calls in the order the model wrote them', async () => {
    const { model } = await modelReplaying([fixture('parallel-tool-calls')]);
    const response = await model.complete(ticketRequest(), { signal: live() });
    expect(response.stopReason).toBe('tool_calls');
    expect(response.toolCalls).toEqual([
      { id: 'call_3kLm8NpQ2rSt5UvW7xYz9AbC', name: 'lookup_order', args: { orderId: 'A-1001' } },
      { id: 'call_9DeF1gHi3JkL5mNo7PqR2sTu', name: 'lookup_order', args: { orderId: 'B-2002' } },
      { id: 'call_6VwX8yZa0BcD2eFg4HiJ6kLm', name: 'get_customer', args: { customerId: 'C-77' } },
    ]);
  });

  it('carries a refused call back to the model as an error tool result on the next request', async () => {
    const { model, server } = await modelReplaying([fixture('single-tool-call'), fixture('refused-call-correction')]);
    const first = await model.complete(ticketRequest(), { signal: live() });
    const [refused] = first.toolCalls;
    if (!refused) throw new Error('the first response has no tool call');
    const messages: ConversationMessage[] = [
      ...ticketRequest().messages,
      { role: 'assistant', toolCalls: first.toolCalls },
      { role: 'tool', callId: refused.id, toolName: refused.name, content: refusalText, isError: true },
    ];
    const second = await model.complete(ticketRequest({ messages, turn: 1 }), { signal: live() });

    expect(messagesOf(server.requests[1]?.body)).toEqual([
      { role: 'system', content: 'You are a support desk agent.' },
      { role: 'user', content: 'The printer is on fire. File a high-priority ticket and give it to Dana.' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_Vx2fJ3n8kQm4pR7tY1wZ0aBc',
            type: 'function',
            function: { name: 'assign_ticket', arguments: '{"ticketId":"T-1042","assignee":"dana"}' },
          },
        ],
      },
      {
        role: 'tool',
        tool_call_id: 'call_Vx2fJ3n8kQm4pR7tY1wZ0aBc',
        content: 'Error: assign_ticket was refused: call create_ticket first.',
      },
    ]);
    expect(second).toEqual({
      text: "The ticket has to exist first, so I'll create it.",
      toolCalls: [
        {
          id: 'call_Qw7eRt9yUi1oPa3sDf5gHj7k',
          name: 'create_ticket',
          args: { title: 'Printer on fire', priority: 'high' },
        },
      ],
      stopReason: 'tool_calls',
      usage: { inputTokens: 561, outputTokens: 38 },
    });
  });

  it('keeps malformed or non-object arguments as the raw string and reads empty arguments as {}', async () => {
    const { model } = await modelReplaying([fixture('malformed-arguments')]);
    const response = await model.complete(ticketRequest(), { signal: live() });
    expect(response.toolCalls).toEqual([
      {
        id: 'call_Zx1cVb3nMa5sDf7gHj9kLq2w',
        name: 'create_ticket',
        args: '{"title": "Printer on fire", "priority": "hi',
      },
      { id: 'call_Er4tYu6iOp8aSd0fGh2jKl4z', name: 'list_queues', args: {} },
      { id: 'call_Mn5bVc7xZl9kJh1gFd3sAq5w', name: 'lookup_order', args: '["A-1001"]' },
    ]);
  });

  it('sends a raw-string argument back verbatim so the model sees what it wrote', async () => {
    const { model, server } = await modelReplaying([fixture('text-answer')]);
    const messages: ConversationMessage[] = [
      ...ticketRequest().messages,
      { role: 'assistant', toolCalls: [{ id: 'call_1', name: 'create_ticket', args: '{"title": "Printer' }] },
      {
        role: 'tool',
        callId: 'call_1',
        toolName: 'create_ticket',
        content: 'arguments are not valid JSON',
        isError: true,
      },
    ];
    await model.complete(ticketRequest({ messages, turn: 1 }), { signal: live() });
    expect(server.requests[0]?.body).toMatchObject({
      messages: [
        {},
        {},
        { tool_calls: [{ function: { name: 'create_ticket', arguments: '{"title": "Printer' } }] },
        { role: 'tool', content: 'Error: arguments are not valid JSON' },
      ],
    });
  });

  it('sends parallel_tool_calls and max_tokens when configured to', async () => {
    const { model, server } = await modelReplaying([fixture('single-tool-call')], {
      parallelToolCalls: false,
      maxTokensField: 'max_tokens',
      strictTools: false,
    });
    await model.complete(ticketRequest({ maxOutputTokens: 64 }), { signal: live() });
    const body = server.requests[0]?.body;
    expect(body).toMatchObject({
      parallel_tool_calls: false,
      max_tokens: 64,
      tools: [{ function: { strict: false } }, { function: { strict: false } }],
    });
    expect(body).not.toHaveProperty('max_completion_tokens');
  });

  it('reports a 400 as a non-retryable BAD_REQUEST carrying the server message', async () => {
    const { model } = await modelReplaying([fixture('bad-request-400')]);
    const error = await rejection(model.complete(ticketRequest(), { signal: live() }));
    expect(error).toMatchObject({ code: 'BAD_REQUEST', retryable: false, status: 400, provider: 'openai' });
    expect(error.message).toContain("Invalid schema for function 'create_ticket'");
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

  it('reports a 429 as RATE_LIMITED with the retry-after in milliseconds', async () => {
    const { model, server } = await modelReplaying([fixture('rate-limited-429'), fixture('text-answer')]);
    const error = await rejection(model.complete(ticketRequest(), { signal: live() }));
    expect(error).toMatchObject({ code: 'RATE_LIMITED', retryable: true, retryAfterMs: 20_000, status: 429 });
    expect(error.message).toContain('Rate limit reached for gpt-4.1');
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
    expect(error.message).toContain('interrupted by the user');
    await expect(server.heldConnectionClosed).resolves.toBeUndefined();
  });

  it('rejects with ABORTED without sending anything when the signal is already aborted', async () => {
    const { model, server } = await modelReplaying([fixture('text-answer')]);
    const error = await rejection(model.complete(ticketRequest(), { signal: AbortSignal.abort() }));
    expect(error.code).toBe('ABORTED');
    expect(server.requests).toHaveLength(0);
  });

  it('reports its own request timeout as a retryable TIMEOUT', async () => {
    const { model } = await modelReplaying([HOLD], { timeoutMs: 100 });
    const error = await rejection(model.complete(ticketRequest(), { signal: live() }));
    expect(error).toMatchObject({ code: 'TIMEOUT', retryable: true });
  });

  it('reports an unreachable server as a retryable CONNECTION error', async () => {
    const { model, server } = await modelReplaying([]);
    await server.close();
    const error = await rejection(model.complete(ticketRequest(), { signal: live() }));
    expect(error).toMatchObject({ code: 'CONNECTION', retryable: true });
  });
});
