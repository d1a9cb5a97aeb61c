import { readUIMessageStream, uiMessageChunkSchema, validateUIMessages } from 'ai';
import type { UIMessageChunk as AIUIMessageChunk } from 'ai';
import { describe, expect, it } from 'vitest';
import { uiMessageChunker } from '../../../src/client';
import type { UIMessageChunk } from '../../../src/client';
import type { FeedEvent, FeedEventBody } from '../../../src/session';

function feed(...bodies: FeedEventBody[]): FeedEvent[] {
  return bodies.map((body, offset) => ({ offset, at: 0, run: 1, turn: 0, ...body }));
}

describe('the UI message stream of a feed', () => {
  it('shows a wait for the content store as one data part, waiting with its problem, then back', async () => {
    const chunker = uiMessageChunker({ sessionId: 's' });
    const problem = { code: 'STORE_UNAVAILABLE' as const, message: 'connect ECONNREFUSED', since: 5, retries: 0 };
    const chunks = [];
    for (const event of feed(
      { type: 'run_started', message: { key: 'k', bytes: 2, preview: 'hi' } },
      { type: 'store_waiting', wait: 1, problem },
      { type: 'store_waiting', wait: 1, problem: { ...problem, retries: 1 } },
      { type: 'store_back', wait: 1 },
      { type: 'store_waiting', wait: 2, problem },
    ))
      chunks.push(...(await chunker(event)));
    expect(chunks.filter((chunk) => chunk.type === 'data-store')).toEqual([
      { type: 'data-store', id: 'store-1', data: { state: 'waiting', ...problem } },
      { type: 'data-store', id: 'store-1', data: { state: 'waiting', ...problem, retries: 1 } },
      { type: 'data-store', id: 'store-1', data: { state: 'back' } },
      { type: 'data-store', id: 'store-4', data: { state: 'waiting', ...problem } },
    ]);
  });

  it('shows what shadow rules would have done as data parts, one per step, and leaves the call’s own part as it is', async () => {
    const chunker = uiMessageChunker({ sessionId: 's' });
    const reason = { code: 'forbidden_after', message: 'Not after close_case.', rule: 'no-refund-after-close' };
    const chunks = [];
    for (const event of feed(
      { type: 'run_started', message: { key: 'k', bytes: 2, preview: 'hi' } },
      { type: 'turn_started' },
      { type: 'rule_shadowed', kind: 'hidden', tools: [{ tool: 'issue_refund', reasons: [reason] }] },
      { type: 'verdict', callId: 'c1', tool: 'issue_refund', verdict: 'allowed', reasons: [] },
      { type: 'rule_shadowed', kind: 'refused', callId: 'c1', tool: 'issue_refund', reasons: [reason] },
      { type: 'rule_shadowed', kind: 'end', reasons: [reason] },
    ))
      chunks.push(...(await chunker(event)));
    expect(chunks.filter((chunk) => chunk.type === 'data-shadow')).toEqual([
      {
        type: 'data-shadow',
        id: 'shadow-hidden-0',
        data: { turn: 0, kind: 'hidden', tools: [{ tool: 'issue_refund', reasons: [reason] }] },
      },
      {
        type: 'data-shadow',
        id: 'shadow-c1',
        data: { turn: 0, kind: 'refused', callId: 'c1', tool: 'issue_refund', reasons: [reason] },
      },
      { type: 'data-shadow', id: 'shadow-end-0', data: { turn: 0, kind: 'end', reasons: [reason] } },
    ]);
    // Not refused: the call's tool part is not settled by what shadow rules said.
    expect(chunks.some((chunk) => chunk.type === 'tool-output-error')).toBe(false);
  });

  it('says why the model stopped and what it used, and finishes a run cut off by the output limit as length', async () => {
    const chunker = uiMessageChunker({ sessionId: 's' });
    const usage = { inputTokens: 12, outputTokens: 34 };
    const totals = { modelCalls: 1, inputTokens: 12, outputTokens: 34, cachedInputTokens: 0, reasoningTokens: 0 };
    const chunks = [];
    for (const event of feed(
      { type: 'run_started', message: { key: 'k', bytes: 2, preview: 'hi' } },
      { type: 'turn_started' },
      {
        type: 'model_responded',
        text: 'Cut',
        calls: [],
        message: { key: 'a', bytes: 3, preview: 'Cut' },
        finishReason: 'length',
        usage,
      },
      { type: 'run_ended', reason: 'max_tokens', usage: totals },
    ))
      chunks.push(...(await chunker(event)));
    expect(chunks.find((chunk) => chunk.type === 'data-model')).toEqual({
      type: 'data-model',
      id: 'model-0',
      data: { turn: 0, finishReason: 'length', rawFinishReason: undefined, usage },
    });
    expect(chunks.find((chunk) => chunk.type === 'data-run-ended')).toMatchObject({ data: { usage: totals } });
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'length' });
  });
});

describe('the UI message stream of a run with tools', () => {
  const ref = (key: string) => ({ key, bytes: 10, preview: 'stored' });
  const run = feed(
    { type: 'run_started', message: ref('m') },
    { type: 'turn_started' },
    {
      type: 'model_responded',
      calls: [
        { callId: 'early', tool: 'deploy', args: { value: {} } },
        { callId: 'look', tool: 'lookup', args: { value: { id: 'A1' } } },
        { callId: 'go', tool: 'deploy', args: { value: { where: 'prod' } } },
        { callId: 'late', tool: 'deploy', args: { value: { where: 'dev' } } },
      ],
      message: ref('a'),
    },
    { type: 'verdict', callId: 'early', tool: 'deploy', verdict: 'blocked', reasons: [{ code: 'x', message: 'no' }] },
    { type: 'verdict', callId: 'look', tool: 'lookup', verdict: 'allowed', reasons: [] },
    { type: 'batch_started', index: 0, size: 1, callIds: ['look'] },
    {
      type: 'tool_ended',
      callId: 'look',
      tool: 'lookup',
      isError: false,
      output: { preview: '{"id"', truncated: true },
      ref: ref('r'),
    },
    { type: 'verdict', callId: 'go', tool: 'deploy', verdict: 'allowed', reasons: [] },
    {
      type: 'approvals_requested',
      approvals: [
        {
          callId: 'go',
          tool: 'deploy',
          input: { value: { where: 'prod' } },
          reason: 'asks',
          destructive: true,
          deadline: 9,
        },
      ],
    },
    { type: 'approval_decided', callId: 'go', approved: true },
    { type: 'approvals_closed', decisions: [{ callId: 'go', tool: 'deploy', decision: 'approved' }] },
    { type: 'tool_ended', callId: 'go', tool: 'deploy', isError: false, output: { value: 'done' } },
    {
      type: 'approvals_requested',
      approvals: [
        {
          callId: 'late',
          tool: 'deploy',
          input: { value: { where: 'dev' } },
          reason: 'asks',
          destructive: true,
          deadline: 9,
        },
      ],
    },
    { type: 'approvals_closed', decisions: [{ callId: 'late', tool: 'deploy', decision: 'timed_out' }] },
    { type: 'run_ended', reason: 'answered' },
  );

  it("gives every chunk in the AI SDK's schema, tool outputs as values and approvals as the AI SDK's own", async () => {
    const chunker = uiMessageChunker({
      sessionId: 's',
      readToolOutput: (stored) => Promise.resolve(stored.key === 'r' ? { output: { id: 'A1', ok: true } } : undefined),
    });
    const chunks: UIMessageChunk[] = [];
    for (const event of run) chunks.push(...(await chunker(event)));
    const schema = uiMessageChunkSchema();
    for (const chunk of chunks)
      expect(await schema.validate?.(chunk), JSON.stringify(chunk)).toMatchObject({ success: true });
    const messages = [];
    const stream = new ReadableStream<AIUIMessageChunk>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
    for await (const message of readUIMessageStream({ stream, terminateOnError: true })) messages.push(message);
    const message = messages.at(-1);
    await validateUIMessages({ messages: message ? [message] : [] });
    const tools = (message?.parts ?? []).filter((part) => part.type === 'dynamic-tool');
    expect(tools.map(({ toolCallId, state }) => [toolCallId, state])).toEqual([
      ['early', 'output-error'],
      ['look', 'output-available'],
      ['go', 'output-available'],
      ['late', 'output-denied'],
    ]);
    expect(tools[1]).toMatchObject({ input: { id: 'A1' }, output: { id: 'A1', ok: true } });
    expect(tools[2]).toMatchObject({
      output: 'done',
      approval: { id: 'approval-go', approved: true, requestReason: 'asks' },
    });
    expect(tools[3]).toMatchObject({ approval: { approved: false, reason: 'No one decided in time.' } });
  });

  it('opens a call only when the session takes it up, so a pause for approval leaves no call without an answer', async () => {
    const chunker = uiMessageChunker({ sessionId: 's' });
    const chunks = [];
    for (const event of run.slice(0, 9)) chunks.push(...(await chunker(event)));
    const opened = chunks.flatMap((chunk) => (chunk.type === 'tool-input-available' ? [chunk.toolCallId] : []));
    expect(opened).toEqual(['early', 'look', 'go']);
    expect(chunks.at(-1)).toEqual({
      type: 'tool-approval-request',
      approvalId: 'approval-go',
      toolCallId: 'go',
      reason: 'asks',
    });
  });

  it('writes no chunks for what it only follows, and goes on from there', async () => {
    const chunker = uiMessageChunker({ sessionId: 's' });
    for (const event of run.slice(0, 9)) expect(await chunker(event, { quiet: true })).toEqual([]);
    const next = await chunker(run[9] as FeedEvent);
    expect(next).toEqual([{ type: 'tool-approval-response', approvalId: 'approval-go', approved: true }]);
  });
});
