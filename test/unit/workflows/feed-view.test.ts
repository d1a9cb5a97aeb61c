import { describe, expect, it } from 'vitest';
import {
  maxCarriedFeedBytes,
  maxFeedPageBytes,
  defaultFeedWindowBytes,
  resolveSessionLimits,
} from '../../../src/session';
import type { AppendedResult, FeedEvent, MessageRef, SessionEvent } from '../../../src/session';
import { feedView, maxResultsEventBytes } from '../../../workflows/feed-view';
import type { FeedView } from '../../../workflows/feed-view';
import { createSessionState } from '../../../workflows/create-session-state';
import { applyEvent } from '../../../workflows/session-state';
import type { SessionState } from '../../../workflows/session-state';
import { compileRules } from '../../helpers/compile-rules';

const rules = compileRules({ toolrail: 1, rules: [] });

const limits = resolveSessionLimits(undefined, undefined, true);

function freshState(queuedMessages: SessionState['queuedMessages'] = []): SessionState {
  const state = createSessionState('s', { rules, model: { provider: 'scripted', model: 'm' } }, rules, limits);
  return { ...state, queuedMessages };
}

const ref = (key: string): MessageRef => ({ key, bytes: 10, preview: key, role: 'user' });

/** A session's state and its feed, fed events the way `Session.emit` does: the fold first, then the view. */
function session(feed: FeedView = feedView(undefined, { windowBytes: defaultFeedWindowBytes }), state = freshState()) {
  return {
    feed,
    state,
    emit(...events: SessionEvent[]) {
      for (const event of events) {
        applyEvent(state, event);
        feed.onEvent(event, state);
      }
    },
    all(): FeedEvent[] {
      return feed.read({ from: feed.read({ from: 0 }).oldest, maxBytes: 10_000_000 }).events;
    },
  };
}

describe('the feed view', () => {
  it('numbers its events 0, 1, 2, … and leaves out the session’s bookkeeping', () => {
    const s = session();
    s.emit(
      { type: 'message_received', text: 'Hello', via: 'update' },
      { type: 'messages_stored', stored: [{ text: 'Hello', message: ref('m1') }] },
      { type: 'run_started', run: 1, queued: ref('m1'), message: ref('m1') },
      { type: 'turn_started', turn: 0 },
      { type: 'log_sealed', log: s.state.log },
      { type: 'model_call_started', tools: 2 },
    );
    expect(s.all().map(({ offset, type, run, turn }) => ({ offset, type, run, turn }))).toEqual([
      { offset: 0, type: 'message_received', run: 0, turn: 0 },
      { offset: 1, type: 'run_started', run: 1, turn: 0 },
      { offset: 2, type: 'turn_started', run: 1, turn: 0 },
      { offset: 3, type: 'model_call_started', run: 1, turn: 0 },
    ]);
    expect(s.feed.last()).toBe(3);
  });

  it('shows what shadow rules would have done with their reasons and rules, at most 100 hidden tools per event', () => {
    const s = session();
    const reason = (tool: string) => ({
      code: 'prerequisite_not_met' as const,
      message: `Call check_eligibility before ${tool}.`,
      rule: { kind: 'requires' as const, id: 'refund-after-check', file: 'rules.yaml', index: 0, path: 'rules[0]' },
      callFirst: ['check_eligibility'],
    });
    const tools = Array.from({ length: 130 }, (_, index) => ({ tool: `tool_${index}`, reasons: [reason('x')] }));
    s.emit(
      { type: 'run_started', run: 1, queued: ref('m1'), message: ref('m1') },
      { type: 'turn_started', turn: 0 },
      { type: 'rule_shadowed', kind: 'hidden', tools },
      { type: 'rule_shadowed', kind: 'refused', callId: 'c1', tool: 'issue_refund', reasons: [reason('issue_refund')] },
      { type: 'rule_shadowed', kind: 'approval', callId: 'c2', tool: 'check_eligibility', reasons: [] },
    );
    const [hidden, refused, approval] = s.all().filter((event) => event.type === 'rule_shadowed');
    expect(hidden).toMatchObject({ kind: 'hidden', omitted: 30, run: 1, turn: 0 });
    expect(hidden?.kind === 'hidden' && hidden.tools.length).toBe(100);
    expect(refused).toMatchObject({
      kind: 'refused',
      callId: 'c1',
      tool: 'issue_refund',
      reasons: [
        {
          code: 'prerequisite_not_met',
          message: 'Call check_eligibility before issue_refund.',
          callFirst: ['check_eligibility'],
          rule: 'refund-after-check',
        },
      ],
    });
    expect(refused).not.toHaveProperty('omitted');
    expect(approval).toMatchObject({ kind: 'approval', callId: 'c2', tool: 'check_eligibility', reasons: [] });
  });

  it('tells each run which message started it, an interrupt’s message first, across continue-as-new', () => {
    const s = session();
    s.emit(
      { type: 'message_received', text: 'first', via: 'start' }, // 0
      { type: 'message_received', text: 'second', via: 'signal' }, // 1
      { type: 'run_started', run: 1, queued: 'first', message: ref('first') }, // 2
      { type: 'interrupt_received', message: 'stop' }, // 3
      { type: 'run_ended', reason: 'interrupted' }, // 4
      { type: 'run_started', run: 2, queued: 'stop', message: ref('stop') }, // 5
    );
    const next = session(feedView(s.feed.carried(), { windowBytes: defaultFeedWindowBytes }), freshState(['second']));
    next.emit({ type: 'run_started', run: 3, queued: 'second', message: ref('second') });
    const started = next.all().filter((event) => event.type === 'run_started');
    expect(started.map((event) => [event.offset, event.messageOffset])).toEqual([
      [2, 0],
      [5, 3],
      [6, 1],
    ]);
  });

  it('shows streamed text of the call in progress once, in order, and a retried attempt from its start', () => {
    const s = session();
    const text = (turn: number, attempt: number, seq: number, t: string): SessionEvent => ({
      type: 'model_text',
      turn,
      attempt,
      seq,
      text: t,
    });
    s.emit(text(0, 1, 1, 'before the call'));
    s.emit({ type: 'model_call_started', tools: 0 });
    s.emit(text(0, 1, 1, 'A'), text(0, 1, 1, 'A again'), text(0, 1, 3, 'C'), text(0, 1, 2, 'B late'));
    s.emit(text(1, 1, 4, 'another turn'), text(0, 2, 1, 'retry'), text(0, 1, 5, 'old attempt'));
    s.emit({ type: 'model_call_failed', interrupted: true }, text(0, 2, 2, 'after the call'));
    expect(s.all().flatMap((event) => (event.type === 'text_delta' ? [[event.attempt, event.text]] : []))).toEqual([
      [1, 'A'],
      [1, 'C'],
      [2, 'retry'],
    ]);
  });

  it('shows a wait for the content store with its problem, and its end, but not the store’s identity', () => {
    const s = session();
    const problem = {
      code: 'STORE_UNAVAILABLE' as const,
      message: 'connect ECONNREFUSED',
      store: 'postgres://db/toolrail',
      since: 1_000,
      retries: 0,
    };
    s.emit(
      { type: 'store_identified', store: { id: 'store-1', description: 'postgres://db/toolrail' } },
      { type: 'store_waiting', wait: 1, problem },
      { type: 'store_waiting', wait: 1, problem: { ...problem, retries: 1 } },
      { type: 'store_back', wait: 1 },
    );
    expect(s.state.status).toBe('idle');
    expect(s.all().map(({ offset, at: _at, run: _run, turn: _turn, ...body }) => [offset, body])).toEqual([
      [0, { type: 'store_waiting', wait: 1, problem }],
      [1, { type: 'store_waiting', wait: 1, problem: { ...problem, retries: 1 } }],
      [2, { type: 'store_back', wait: 1 }],
    ]);
  });

  it('shows why the model stopped and the tokens it used, and each run’s tokens when it ends', () => {
    const s = session();
    const shown = { messages: 1, previewed: 0, omitted: 0, bytes: 10, budgetBytes: 100 };
    const answer = (text: string, inputTokens: number, outputTokens: number): SessionEvent => ({
      type: 'model_responded',
      text,
      calls: [],
      prepared: [],
      message: ref(text),
      shown,
      finishReason: 'length',
      rawFinishReason: 'max_output_tokens',
      usage: { inputTokens, outputTokens },
    });
    s.emit(
      { type: 'message_received', text: 'Hello', via: 'update' },
      { type: 'run_started', run: 1, queued: ref('m1'), message: ref('m1') },
      { type: 'turn_started', turn: 0 },
      { type: 'model_call_started', tools: 0 },
      answer('Cut off', 100, 20),
      { type: 'run_ended', reason: 'max_tokens' },
      { type: 'run_started', run: 2, queued: ref('m2'), message: ref('m2') },
      { type: 'model_call_started', tools: 0 },
      answer('Cut off again', 7, 3),
      { type: 'run_ended', reason: 'max_tokens' },
    );
    const responded = s.all().filter((event) => event.type === 'model_responded');
    expect(responded[0]).toMatchObject({
      finishReason: 'length',
      rawFinishReason: 'max_output_tokens',
      usage: { inputTokens: 100, outputTokens: 20 },
    });
    const ended = s.all().flatMap((event) => (event.type === 'run_ended' ? [event.usage] : []));
    expect(ended).toEqual([
      { modelCalls: 1, inputTokens: 100, outputTokens: 20, cachedInputTokens: 0, reasoningTokens: 0 },
      { modelCalls: 1, inputTokens: 7, outputTokens: 3, cachedInputTokens: 0, reasoningTokens: 0 },
    ]);
  });

  it('pages its answers, and says where it starts when asked for what it no longer holds', () => {
    const s = session();
    for (let index = 0; index < 50; index++) s.emit({ type: 'notice', text: `notice ${index} ${'x'.repeat(100)}` });
    const page = s.feed.read({ from: 10, maxBytes: 1_000 });
    expect(page.events[0]?.offset).toBe(10);
    expect(page.next).toBe(10 + page.events.length);
    expect(page.events.length).toBeGreaterThan(1);
    expect(page.events.length).toBeLessThan(10);
    expect(page.end).toBe(50);
    expect(s.feed.read({ from: 50 })).toEqual({ events: [], next: 50, oldest: 0, end: 50 });
    expect(() => s.feed.read({ from: 51 })).toThrow(/offset 51 is past the end of the feed/);
    // A window over its budget drops its oldest events.
    for (let index = 0; index < 700; index++) s.emit({ type: 'notice', text: `${index} ${'y'.repeat(990)}` });
    const all = s.all();
    const bytes = all.reduce((sum, event) => sum + JSON.stringify(event).length, 0);
    expect(bytes).toBeLessThanOrEqual(defaultFeedWindowBytes);
    expect(s.feed.read({ from: 0 })).toMatchObject({ events: [], next: 0, oldest: all[0]?.offset });
  });

  it('appends the results of a batch of a thousand calls in several events, each within its byte budget, in call order, and a single result as one event', () => {
    const results: AppendedResult[] = Array.from({ length: 1_000 }, (_, index) => ({
      callId: `call_${index}`,
      tool: 'read_page',
      isError: false,
      content: `page ${index} ${'lorem ipsum '.repeat(20)}`,
      message: {
        key: 'k'.repeat(43),
        bytes: 1_024,
        preview: `page ${index} ${'lorem ipsum '.repeat(20)}`,
        role: 'tool',
      },
    }));
    const s = session(feedView(undefined, { windowBytes: 4 * defaultFeedWindowBytes }));
    s.emit({ type: 'results_appended', results });
    const pages = [s.feed.read({ from: 0 })];
    while (pages.at(-1)!.next < pages.at(-1)!.end) pages.push(s.feed.read({ from: pages.at(-1)!.next }));
    const appended = pages.flatMap((page) => page.events).filter((event) => event.type === 'results_appended');
    expect(appended.length).toBeGreaterThan(1);
    for (const event of appended)
      expect(Buffer.byteLength(JSON.stringify(event.results))).toBeLessThanOrEqual(maxResultsEventBytes);
    expect(appended.flatMap((event) => event.results.map((result) => result.callId))).toEqual(
      results.map((result) => result.callId),
    );
    for (const page of pages)
      expect(Buffer.byteLength(JSON.stringify(page))).toBeLessThanOrEqual(maxFeedPageBytes + 1_024);

    const single = session(feedView(undefined, { windowBytes: 4 * defaultFeedWindowBytes }));
    single.emit({ type: 'results_appended', results: results.slice(0, 1) });
    expect(single.all().map((event) => event.type)).toEqual(['results_appended']);
    expect(single.all().flatMap((event) => (event.type === 'results_appended' ? event.results : []))).toMatchObject([
      { callId: 'call_0', tool: 'read_page' },
    ]);
  });

  it('carries its newest events within the byte budget, and the next run numbers on', () => {
    const s = session();
    for (let index = 0; index < 400; index++) s.emit({ type: 'notice', text: `notice ${index} ${'z'.repeat(80)}` });
    const carried = s.feed.carried();
    expect(carried.next).toBe(400);
    const carriedBytes = carried.window.reduce((sum, event) => sum + JSON.stringify(event).length, 0);
    expect(carriedBytes).toBeLessThanOrEqual(maxCarriedFeedBytes);
    expect(carriedBytes).toBeGreaterThan(maxCarriedFeedBytes - 200);
    expect(carried.window.at(-1)?.offset).toBe(399);
    const next = session(feedView(carried, { windowBytes: defaultFeedWindowBytes }));
    next.emit({ type: 'continued_as_new' });
    expect(next.feed.read({ from: 399 }).events.map((event) => [event.offset, event.type])).toEqual([
      [399, 'notice'],
      [400, 'continued_as_new'],
    ]);
    expect(next.feed.read({ from: 0 })).toMatchObject({ events: [], oldest: carried.window[0]?.offset });
  });
});
