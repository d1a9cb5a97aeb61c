import { describe, expect, it } from 'vitest';
import { validate } from '../../../src/rules';
import type { PreparedCall, ToolErrorOutcome } from '../../../src/dispatch';
import { resolveSessionLimits } from '../../../src/session';
import type { MessageRef, SessionEvent } from '../../../src/session';
import type { ModelUsage } from '../../../src/models';
import { createSessionState } from '../../../workflows/create-session-state';
import { applyEvent } from '../../../workflows/session-state';
import type { SessionState } from '../../../workflows/session-state';
import { compileRules } from '../../helpers/compile-rules';

const rules = compileRules(`
toolrail: 1
rules:
  - { kind: requires, tool: issue_refund, after: [check_eligibility] }
  - { kind: max_count, tool: check_eligibility, limit: 1, scope: run }
`);

const limits = resolveSessionLimits(undefined, undefined, true);

function freshState(): SessionState {
  return createSessionState('s', { rules, model: { provider: 'scripted', model: 'm' } }, rules, limits);
}

const ref = (key: string, role: MessageRef['role'] = 'user'): MessageRef => ({ key, bytes: 10, preview: key, role });

function call(callId: string, toolName: string): PreparedCall {
  return {
    type: 'prepared-call',
    callId,
    requestedName: toolName,
    toolName,
    args: {},
    input: {},
    concurrency: 'UNSAFE',
    concurrencySafe: false,
    readOnly: false,
    destructive: true,
    openWorld: true,
    permission: 'allow',
    permissionMessage: null,
    interruptBehavior: 'block',
    requiresUserInteraction: false,
    execution: {
      timeoutMs: 1_000,
      heartbeatTimeoutMs: null,
      retry: { maximumAttempts: 1, initialIntervalMs: 1_000, backoffCoefficient: 2, maximumIntervalMs: 1_000 },
    },
  };
}

const unknownTool: ToolErrorOutcome = {
  type: 'tool-error',
  callId: 'c0',
  toolName: 'nope',
  code: 'UNKNOWN_TOOL',
  message: '?',
};

function fold(state: SessionState, events: SessionEvent[]): SessionState {
  for (const event of events) applyEvent(state, event);
  return state;
}

describe('applyEvent, the one writer of session state', () => {
  it('runs a message through a turn: queue, run, turn, calls settled in call order, recorded by the rules, joined to the log', () => {
    const state = fold(freshState(), [
      { type: 'message_received', text: 'refund ORD-1', via: 'update' },
      { type: 'message_received', text: 'and then ORD-2', via: 'signal' },
    ]);
    expect(state.queuedMessages).toEqual(['refund ORD-1', 'and then ORD-2']);

    fold(state, [
      { type: 'run_started', run: 1, queued: 'refund ORD-1', message: ref('u1') },
      { type: 'turn_started', turn: 0 },
      { type: 'model_call_started', tools: 2 },
    ]);
    expect(state.queuedMessages).toEqual(['and then ORD-2']);
    expect(state.counters).toMatchObject({ runs: 1, turns: 1 });
    expect(state.run).toEqual({ inProgress: true, turns: 1 });
    expect(state.status).toBe('thinking');

    const first = call('c1', 'check_eligibility');
    const second = call('c2', 'issue_refund');
    applyEvent(state, {
      type: 'model_responded',
      calls: [],
      prepared: [unknownTool, first, second],
      message: ref('a1', 'assistant'),
      finishReason: 'tool-calls',
      shown: { messages: 1, previewed: 0, omitted: 0, bytes: 10, budgetBytes: 100 },
    });
    // The error the first call already had is settled at once; the others wait for their batches.
    expect(state.turn?.settled.map(({ outcome }) => outcome.callId)).toEqual(['c0']);
    expect(state.turn?.remaining.map(({ callId }) => callId)).toEqual(['c1', 'c2']);

    fold(state, [
      { type: 'batch_started', index: 0, size: 1, callIds: ['c1'] },
      { type: 'tool_started', callId: 'c1', tool: 'check_eligibility', interruptBehavior: 'block', approved: false },
    ]);
    expect(state.status).toBe('running_tools');
    expect([...state.running.keys()]).toEqual(['c1']);
    const result = {
      type: 'tool-result' as const,
      callId: 'c1',
      toolName: 'check_eligibility',
      output: { eligible: true },
    };
    fold(state, [
      { type: 'tool_ended', callId: 'c1', tool: 'check_eligibility', outcome: result },
      { type: 'batch_ended', index: 0, outcomes: [{ outcome: result, message: ref('r1', 'tool'), ran: true }] },
    ]);
    expect(state.running.size).toBe(0);
    expect(state.counters.toolCalls).toBe(1);
    expect(state.lastTool).toBe('check_eligibility');
    // The rules recorded the eligibility check: the refund it is a prerequisite of is allowed now.
    expect(validate(rules, state.ruleState, { tool: 'issue_refund', args: {} }, ['issue_refund']).verdict).toBe(
      'allowed',
    );
    expect(state.turn?.settled.map(({ outcome }) => outcome.callId)).toEqual(['c0', 'c1']);
    expect(state.turn?.remaining.map(({ callId }) => callId)).toEqual(['c2']);

    const refused: ToolErrorOutcome = {
      type: 'tool-error',
      callId: 'c2',
      toolName: 'issue_refund',
      code: 'RULE_BLOCKED',
      message: 'no',
    };
    fold(state, [
      { type: 'verdict', callId: 'c2', tool: 'issue_refund', verdict: 'blocked', reasons: [] },
      { type: 'batch_ended', index: 1, outcomes: [{ outcome: refused, ran: false }] },
    ]);
    expect(state.counters).toMatchObject({ blockedCalls: 1, toolCalls: 1 });
    expect(state.turn?.remaining).toEqual([]);
    const logBefore = state.log.count;
    applyEvent(state, {
      type: 'results_appended',
      results: ['c0', 'c1', 'c2'].map((callId) => ({
        callId,
        tool: 't',
        isError: false,
        content: '',
        message: ref(callId, 'tool'),
      })),
    });
    expect(state.log.count).toBe(logBefore + 3);
    expect(state.turn).toBeUndefined();

    applyEvent(state, { type: 'run_ended', reason: 'answered' });
    expect(state).toMatchObject({ status: 'idle', lastRunEnd: 'answered', run: { inProgress: false, turns: 0 } });
    expect(state.ruleState.ended).toBe('answered');
  });

  it('ends the log at the segment a model call sealed its tail and response into, and counts the response', () => {
    const state = fold(freshState(), [
      { type: 'message_received', text: 'hi', via: 'update' },
      { type: 'run_started', run: 1, queued: 'hi', message: ref('u1') },
      { type: 'turn_started', turn: 0 },
    ]);
    expect(state.log.tail.map(({ key }) => key)).toEqual(['u1']);
    const sealed = { key: 'segment-1', bytes: 300, preview: '' };
    applyEvent(state, {
      type: 'model_responded',
      calls: [],
      prepared: [],
      message: ref('a1', 'assistant'),
      finishReason: 'stop',
      shown: { messages: 1, previewed: 0, omitted: 0, bytes: 10, budgetBytes: 100 },
      sealed,
    });
    expect(state.log).toEqual({ head: sealed, tail: [], count: 2, bytes: 20 });
  });

  it('looks the catalog up again after tool_search revealed a tool (its version no longer names it)', () => {
    const state = fold(freshState(), [
      { type: 'catalog_changed', catalog: { version: 'v1', tools: [], hiddenDeferredTools: ['send_invite'] } },
      { type: 'message_received', text: 'hi', via: 'update' },
      { type: 'run_started', run: 1, queued: 'hi', message: ref('u1') },
      { type: 'turn_started', turn: 0 },
    ]);
    const search = { ...call('s1', 'tool_search'), concurrency: 'READ_ONLY' as const };
    applyEvent(state, {
      type: 'model_responded',
      calls: [],
      prepared: [search],
      message: ref('a1', 'assistant'),
      finishReason: 'tool-calls',
      shown: { messages: 1, previewed: 0, omitted: 0, bytes: 10, budgetBytes: 100 },
    });
    const outcome = {
      type: 'tool-result' as const,
      callId: 's1',
      toolName: 'tool_search',
      output: { revealed: ['send_invite'] },
    };
    applyEvent(state, { type: 'batch_ended', index: 0, outcomes: [{ outcome, ran: true }] });
    expect(state.revealedTools).toEqual(['send_invite']);
    expect(state.catalog.version).toBe('');
  });

  it('puts an interrupt message first, and marks the run interrupted only while one is in progress', () => {
    const state = fold(freshState(), [
      { type: 'message_received', text: 'later', via: 'update' },
      { type: 'interrupt_received', message: 'now' },
    ]);
    expect(state.queuedMessages).toEqual(['now', 'later']);
    expect(state.interrupt).toBeUndefined();
    fold(state, [{ type: 'run_started', run: 1, queued: 'now', message: ref('u') }, { type: 'interrupt_received' }]);
    expect(state.interrupt).toEqual({});
    applyEvent(state, { type: 'run_ended', reason: 'interrupted' });
    expect(state.interrupt).toBeUndefined();
  });

  it('waits for approvals: status, pending calls, human decisions, and an undecided call closed as denied', () => {
    const state = fold(freshState(), [{ type: 'model_call_started', tools: 1 }]);
    const approval = { toolName: 'issue_refund', input: {}, reason: 'asks', destructive: true, deadline: 1 };
    fold(state, [
      {
        type: 'approvals_requested',
        approvals: [
          { callId: 'a', ...approval },
          { callId: 'b', ...approval },
        ],
      },
    ]);
    expect(state.status).toBe('awaiting_approval');
    fold(state, [{ type: 'approval_decided', callId: 'a', approved: true, reason: 'ok' }]);
    expect([...state.pendingApprovals.keys()]).toEqual(['b']);
    expect(state.decisions.get('a')).toEqual({ approved: true, reason: 'ok' });
    fold(state, [
      {
        type: 'approvals_closed',
        decisions: [
          { callId: 'a', tool: 'issue_refund', decision: 'approved', reason: 'ok' },
          { callId: 'b', tool: 'issue_refund', decision: 'timed_out' },
        ],
      },
    ]);
    expect(state.status).toBe('thinking');
    expect(state.pendingApprovals.size).toBe(0);
    expect(state.decisions.get('b')).toEqual({ approved: false });
  });

  it('changes nothing when shadow rules would have hidden, refused or asked: they are not enforced', () => {
    const state = fold(freshState(), [
      { type: 'run_started', run: 1, queued: 'go', message: ref('u') },
      { type: 'turn_started', turn: 0 },
    ]);
    const before = structuredClone(state);
    const reason = {
      code: 'prerequisite_not_met' as const,
      message: 'Call check_eligibility first.',
      rule: { kind: 'requires' as const, id: 'r', file: 'rules.yaml', index: 0, path: 'rules[0]' },
    };
    fold(state, [
      { type: 'rule_shadowed', kind: 'hidden', tools: [{ tool: 'issue_refund', reasons: [reason] }] },
      { type: 'rule_shadowed', kind: 'refused', callId: 'c1', tool: 'issue_refund', reasons: [reason] },
      { type: 'rule_shadowed', kind: 'approval', callId: 'c2', tool: 'check_eligibility', reasons: [] },
      { type: 'rule_shadowed', kind: 'end', reasons: [reason] },
    ]);
    expect(state).toEqual(before);
    expect(state.counters.blockedCalls).toBe(0);
  });

  it('starts no turn past the turn limit: the rules end the run and the counters stay', () => {
    const state = freshState();
    const limited = { ...state, rules: { ...rules, settings: { ...rules.settings, maxTurnsPerRun: 1 } } };
    fold(limited, [
      { type: 'run_started', run: 1, queued: 'go', message: ref('u') },
      { type: 'turn_started', turn: 0 },
      { type: 'turn_started', turn: 1 },
    ]);
    expect(limited.counters.turns).toBe(1);
    expect(limited.ruleState.ended).toBe('turn_limit');
  });

  it('counts each model call and its usage in the session’s and the run’s totals; a new run starts its own', () => {
    const shown = { messages: 1, previewed: 0, omitted: 0, bytes: 10, budgetBytes: 100 };
    const answered = (usage?: ModelUsage): SessionEvent => ({
      type: 'model_responded',
      calls: [],
      prepared: [],
      message: ref('a', 'assistant'),
      shown,
      finishReason: 'stop',
      ...(usage ? { usage } : {}),
    });
    const state = fold(freshState(), [
      { type: 'run_started', run: 1, queued: 'one', message: ref('u1') },
      answered({ inputTokens: 100, outputTokens: 10, cachedInputTokens: 60 }),
      answered(),
      { type: 'run_ended', reason: 'answered' },
      { type: 'run_started', run: 2, queued: 'two', message: ref('u2') },
      answered({ inputTokens: 200, outputTokens: 20 }),
    ]);
    expect(state.usage).toEqual({
      session: { modelCalls: 3, inputTokens: 300, outputTokens: 30, cachedInputTokens: 60, reasoningTokens: 0 },
      run: { modelCalls: 1, inputTokens: 200, outputTokens: 20, cachedInputTokens: 0, reasoningTokens: 0 },
    });
  });

  it('shows waiting_for_store while any operation waits for the store, and the status it interrupted after the last', () => {
    const state = freshState();
    applyEvent(state, { type: 'model_call_started', tools: 1 });
    const problem = { code: 'STORE_UNAVAILABLE', message: 'down', since: 0, retries: 0 } as const;
    applyEvent(state, { type: 'store_waiting', wait: 0, problem });
    applyEvent(state, { type: 'store_waiting', wait: 1, problem: { ...problem, message: 'full' } });
    expect(state.status).toBe('waiting_for_store');
    expect([...state.store.waits.keys()]).toEqual([0, 1]);
    // A newer problem of the first wait becomes the newest one; the count of waits begun stays.
    applyEvent(state, { type: 'store_waiting', wait: 0, problem: { ...problem, retries: 1 } });
    expect([...state.store.waits.keys()]).toEqual([1, 0]);
    expect(state.store.waitsBegun).toBe(2);
    applyEvent(state, { type: 'store_back', wait: 1 });
    expect(state.status).toBe('waiting_for_store');
    applyEvent(state, { type: 'store_back', wait: 0 });
    expect(state.status).toBe('thinking');
    applyEvent(state, { type: 'store_identified', store: { id: 'id-1', description: 'directory:h:/d' } });
    expect(state.store.identity).toEqual({ id: 'id-1', description: 'directory:h:/d' });
  });
});
