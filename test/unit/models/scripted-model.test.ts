import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  callLanguageModel,
  createScriptedModel,
  latestToolResults,
  ModelError,
  parallelToolCallsResponse,
  textResponse,
  toolCallResponse,
  type ConversationMessage,
  type LanguageModelV4,
  type ModelRequest,
  type ModelResponse,
} from '../../../src/models';

const live = (): AbortSignal => new AbortController().signal;

/** One call of `model` through the production path (`callLanguageModel`): the response the session records. */
async function complete(
  model: LanguageModelV4,
  request: ModelRequest,
  { signal, stream = false }: { signal: AbortSignal; stream?: boolean },
): Promise<ModelResponse> {
  return (await callLanguageModel({ model, request, abortSignal: signal, stream })).response;
}

function requestAt(turn: number, messages: ConversationMessage[] = [{ role: 'user', text: 'hello' }]): ModelRequest {
  return { model: 'script', messages, tools: [], turn };
}

async function rejection(promise: Promise<unknown>): Promise<ModelError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!ModelError.isInstance(error)) throw new Error(`expected a ModelError, got ${String(error)}`);
  return error;
}

describe('createScriptedModel', () => {
  it('answers each turn with the step of that index, whatever order the calls come in', async () => {
    const model = createScriptedModel([textResponse('zero'), textResponse('one'), textResponse('two')]);
    expect((await complete(model, requestAt(2), { signal: live() })).text).toBe('two');
    expect((await complete(model, requestAt(0), { signal: live() })).text).toBe('zero');
    expect((await complete(model, requestAt(1), { signal: live() })).text).toBe('one');
  });

  it('gives a retried turn and a fresh instance (a restarted worker) the same answer', async () => {
    const script = [toolCallResponse('create_ticket', { title: 'Printer on fire' }), textResponse('done')];
    const first = createScriptedModel(script);
    const retried = await complete(first, requestAt(0), { signal: live() });
    const again = await complete(first, requestAt(0), { signal: live() });
    const restarted = await complete(createScriptedModel(script), requestAt(0), { signal: live() });
    expect(again).toEqual(retried);
    expect(restarted).toEqual(retried);
    expect((await complete(first, requestAt(1), { signal: live() })).text).toBe('done');
  });

  it('fails loudly and non-retryably when a turn is past the end of the script, naming its size', async () => {
    const model = createScriptedModel([textResponse('a'), textResponse('b'), textResponse('c')]);
    const error = await rejection(complete(model, requestAt(3), { signal: live() }));
    expect(error).toMatchObject({ code: 'SCRIPT_EXHAUSTED', retryable: false, provider: 'scripted' });
    expect(error.message).toBe(
      'scripted: the script ran out: turn 3 asked for response 4, but it has 3 responses (turns 0 to 2)',
    );
  });

  it('says an empty script is empty', async () => {
    const error = await rejection(complete(createScriptedModel([]), requestAt(0), { signal: live() }));
    expect(error.message).toContain('but it is empty');
  });

  it('rejects a turn that is not a non-negative integer', async () => {
    const model = createScriptedModel([textResponse('a')]);
    const error = await rejection(complete(model, requestAt(-1), { signal: live() }));
    expect(error).toMatchObject({ code: 'BAD_REQUEST', retryable: false });
  });

  it('lets a step function react to a refused call', async () => {
    const model = createScriptedModel([
      toolCallResponse('assign_ticket', { ticketId: 'T-1', assignee: 'dana' }),
      (request) => {
        const refused = latestToolResults(request).find((result) => result.isError);
        return refused
          ? toolCallResponse('create_ticket', { title: 'Printer on fire' }, { text: `Fixing: ${refused.content}` })
          : textResponse('assigned');
      },
    ]);
    const first = await complete(model, requestAt(0), { signal: live() });
    const [call] = first.toolCalls;
    if (!call) throw new Error('no call');
    const refusedTurn = requestAt(1, [
      { role: 'user', text: 'hello' },
      { role: 'assistant', toolCalls: first.toolCalls },
      { role: 'tool', callId: call.id, toolName: call.name, content: 'call create_ticket first', isError: true },
    ]);
    const accepted = requestAt(1, [
      { role: 'user', text: 'hello' },
      { role: 'assistant', toolCalls: first.toolCalls },
      { role: 'tool', callId: call.id, toolName: call.name, content: 'ok', isError: false },
    ]);
    expect(await complete(model, refusedTurn, { signal: live() })).toEqual({
      text: 'Fixing: call create_ticket first',
      toolCalls: [{ id: 'call_1_0', name: 'create_ticket', args: { title: 'Printer on fire' } }],
      finishReason: 'tool-calls',
    });
    expect((await complete(model, accepted, { signal: live() })).text).toBe('assigned');
  });

  it('numbers default call ids by turn and index, so ids never repeat across turns', async () => {
    const model = createScriptedModel([
      parallelToolCallsResponse([
        { name: 'lookup_order', args: { orderId: 'A' } },
        { name: 'lookup_order', args: { orderId: 'B' }, id: 'fixed-id' },
        { name: 'list_queues' },
      ]),
      toolCallResponse('lookup_order', { orderId: 'C' }),
    ]);
    const zero = await complete(model, requestAt(0), { signal: live() });
    const one = await complete(model, requestAt(1), { signal: live() });
    expect(zero).toEqual({
      toolCalls: [
        { id: 'call_0_0', name: 'lookup_order', args: { orderId: 'A' } },
        { id: 'fixed-id', name: 'lookup_order', args: { orderId: 'B' } },
        { id: 'call_0_2', name: 'list_queues', args: {} },
      ],
      finishReason: 'tool-calls',
    });
    expect(one.toolCalls.map((call) => call.id)).toEqual(['call_1_0']);
  });

  it('hands out copies, so a caller mutating a response cannot change the script', async () => {
    const model = createScriptedModel([toolCallResponse('create_ticket', { title: 'original' })]);
    const first = await complete(model, requestAt(0), { signal: live() });
    (first.toolCalls[0]?.args as { title: string }).title = 'mutated';
    first.toolCalls.push({ id: 'extra', name: 'extra', args: {} });
    const second = await complete(model, requestAt(0), { signal: live() });
    expect(second.toolCalls).toEqual([{ id: 'call_0_0', name: 'create_ticket', args: { title: 'original' } }]);
  });

  it('keeps an explicit finish reason and usage, reported as a provider reports them', async () => {
    const model = createScriptedModel([
      textResponse('cut off', {
        finishReason: 'length',
        usage: { inputTokens: 10, outputTokens: 4, cachedInputTokens: 6, reasoningTokens: 1 },
      }),
      textResponse('I cannot help with that.', { finishReason: 'refusal' }),
      textResponse('Still working', { finishReason: 'pause' }),
    ]);
    expect(await complete(model, requestAt(0), { signal: live() })).toEqual({
      text: 'cut off',
      toolCalls: [],
      finishReason: 'length',
      usage: { inputTokens: 10, outputTokens: 4, cachedInputTokens: 6, reasoningTokens: 1 },
    });
    expect(await complete(model, requestAt(1), { signal: live() })).toMatchObject({
      finishReason: 'refusal',
      rawFinishReason: 'refusal',
    });
    expect(await complete(model, requestAt(2), { signal: live() })).toMatchObject({
      finishReason: 'pause',
      rawFinishReason: 'pause_turn',
    });
  });

  it('streams the same answer it generates, its text word by word', async () => {
    const script = [toolCallResponse('create_ticket', { title: 'Printer on fire' }, { text: 'Filing it now.' })];
    const deltas: string[] = [];
    const streamed = await callLanguageModel({
      model: createScriptedModel(script),
      request: requestAt(0),
      abortSignal: live(),
      stream: true,
      onTextDelta: (delta) => deltas.push(delta),
    });
    const generated = await complete(createScriptedModel(script), requestAt(0), { signal: live() });
    expect(streamed.response).toEqual(generated);
    expect(deltas).toEqual(['Filing ', 'it ', 'now.']);
  });

  describe('with a step delay (fake timers)', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('answers only once the delay has passed', async () => {
      vi.useFakeTimers();
      const model = createScriptedModel([textResponse('slow', { delayMs: 120 })]);
      let answered = false;
      const call = complete(model, requestAt(0), { signal: live() }).then((response) => {
        answered = true;
        return response;
      });
      await vi.advanceTimersByTimeAsync(119);
      expect(answered).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(answered).toBe(true);
      expect((await call).text).toBe('slow');
    });

    it('cuts the delay short with ABORTED when the signal aborts, with no time passing', async () => {
      vi.useFakeTimers();
      const model = createScriptedModel([textResponse('never', { delayMs: 60_000 })]);
      const controller = new AbortController();
      const call = rejection(complete(model, requestAt(0), { signal: controller.signal }));
      controller.abort(new Error('interrupted by the user'));
      const error = await call;
      expect(vi.getTimerCount()).toBe(0);
      expect(error).toMatchObject({ code: 'ABORTED', retryable: false });
      expect(error.message).toContain('interrupted by the user');
    });
  });

  it('rejects with ABORTED when the signal is already aborted', async () => {
    const model = createScriptedModel([textResponse('never')]);
    const error = await rejection(complete(model, requestAt(0), { signal: AbortSignal.abort() }));
    expect(error.code).toBe('ABORTED');
  });

  it('records copies of the requests it received, retries included', async () => {
    const model = createScriptedModel([textResponse('a')]);
    const request = requestAt(0);
    await complete(model, request, { signal: live() });
    await complete(model, request, { signal: live() });
    request.messages.push({ role: 'user', text: 'later' });
    expect(model.requests).toEqual([requestAt(0), requestAt(0)]);
    expect(model.stepCount).toBe(1);
  });

  it('keeps no requests when recordRequests is false, and still answers from the script', async () => {
    const model = createScriptedModel([textResponse('a')], { recordRequests: false });
    const response = await complete(model, requestAt(0), { signal: live() });
    expect(response.text).toBe('a');
    expect(model.requests).toEqual([]);
  });
});

describe('latestToolResults', () => {
  it('returns the results after the last assistant turn, in order', () => {
    const results = latestToolResults(
      requestAt(2, [
        { role: 'user', text: 'hi' },
        { role: 'assistant', toolCalls: [{ id: 'a', name: 'x', args: {} }] },
        { role: 'tool', callId: 'a', toolName: 'x', content: 'old', isError: false },
        {
          role: 'assistant',
          toolCalls: [
            { id: 'b', name: 'y', args: {} },
            { id: 'c', name: 'z', args: {} },
          ],
        },
        { role: 'tool', callId: 'b', toolName: 'y', content: 'first', isError: false },
        { role: 'tool', callId: 'c', toolName: 'z', content: 'second', isError: true },
      ]),
    );
    expect(results.map((result) => result.content)).toEqual(['first', 'second']);
  });

  it('returns nothing when the last message is the assistant turn', () => {
    expect(latestToolResults(requestAt(0, [{ role: 'assistant', toolCalls: [] }]))).toEqual([]);
  });
});
