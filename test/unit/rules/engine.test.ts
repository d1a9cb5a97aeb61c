import { describe, expect, it } from 'vitest';
import {
  approvalDeniedReason,
  beginTurn,
  dependsOn,
  describeRuleState,
  endRun,
  isRunEnded,
  narrow,
  record,
  startRun,
  validate,
} from '../../../src/rules/index';
import { mappingKeyMatches } from '../../../src/rules/kinds/conditional/decide-conditional';
import { parseJsonPath, resolveJsonPath } from '../../../src/rules/paths/json-path';
import { RuleSession, compileRules } from './support/rule-session';

const codes = (reasons: { code: string }[]) => reasons.map((reason) => reason.code);

describe('scopes', () => {
  it('a run-scoped prerequisite must be met again in every run; a session-scoped one once', () => {
    const rules = compileRules([
      { kind: 'requires', tool: 'write', after: ['login'], scope: 'run' },
      { kind: 'requires', tool: 'read', after: ['login'] },
    ]);
    const session = new RuleSession(rules, ['login', 'read', 'write']).user().run('login');
    session.user('again');
    expect(codes(session.call('write'))).toEqual(['prerequisite_not_met']);
    expect(session.call('read')).toEqual([]);
  });

  it('a session-scoped max_count is not reset by a new run', () => {
    const session = new RuleSession(compileRules([{ kind: 'max_count', tool: 'a', limit: 1, scope: 'session' }]), [
      'a',
      'b',
    ])
      .user()
      .run('a');
    session.user('again');
    expect(codes(session.call('a'))).toEqual(['max_count_reached']);
  });

  it('a failed call counts as an attempt but satisfies nothing', () => {
    const rules = compileRules([
      { kind: 'max_count', tool: 'a', limit: 2 },
      { kind: 'requires', tool: 'b', after: ['a'] },
    ]);
    const session = new RuleSession(rules, ['a', 'b']).user();
    session.call('a', { error: true });
    expect(codes(session.call('b'))).toEqual(['prerequisite_not_met']);
    session.run('a');
    expect(codes(session.call('a'))).toEqual(['max_count_reached']);
    expect(session.call('b')).toEqual([]);
  });

  it('a run-scoped sequence restarts each run', () => {
    const rules = compileRules([{ kind: 'sequence', positions: ['a', 'b'], scope: 'run' }]);
    const session = new RuleSession(rules, ['a', 'b', 'c']).user().run('a');
    expect(codes(session.call('c'))).toEqual(['sequence_expected']);
    session.user('next');
    expect(session.visible()).toEqual(['a']);
  });

  it('a session-scoped sequence goes on across runs and finishes once', () => {
    const rules = compileRules([{ kind: 'sequence', positions: ['a', 'b'], scope: 'session' }]);
    const session = new RuleSession(rules, ['a', 'b', 'c']).user().run('a');
    session.user('next');
    expect(session.visible()).toEqual(['b']);
    session.run('b');
    session.user('later');
    expect(session.visible()).toEqual(['a', 'b', 'c']);
  });

  it('init rules apply at the start of every run', () => {
    const session = new RuleSession(compileRules([{ kind: 'init', tool: 'hello' }]), ['hello', 'work'])
      .user()
      .run('hello', 'work');
    session.user('again');
    expect(codes(session.call('work'))).toEqual(['init_required']);
  });
});

describe('parent, child and conditional rules', () => {
  it('a parent rule blocks its children except right after it, and right after it allows only them', () => {
    const session = new RuleSession(compileRules([{ kind: 'parent', tool: 'ask_human', children: ['approve_gate'] }]), [
      'ask_human',
      'approve_gate',
      'other',
    ]).user();
    expect(session.visible()).toEqual(['ask_human', 'other']);
    session.run('ask_human');
    expect(session.visible()).toEqual(['approve_gate']);
    expect(codes(session.call('other'))).toEqual(['parent_required']);
    session.run('approve_gate');
    expect(session.visible()).toEqual(['ask_human', 'other']);
  });

  it('a failed call does not lift a pending child rule', () => {
    const session = new RuleSession(compileRules([{ kind: 'child', tool: 'p', children: ['c'] }]), ['p', 'c', 'x'])
      .user()
      .run('p');
    session.call('c', { error: true });
    expect(session.visible()).toEqual(['c']);
  });

  it('a conditional rule reads the value at its path, then the scalar result, then the message field', () => {
    const rules = compileRules([
      { kind: 'conditional', tool: 'flip', mapping: [{ when: 'heads', child: 'win' }], path: '$.side' },
      { kind: 'conditional', tool: 'roll', mapping: [{ when: '6', child: 'win' }] },
    ]);
    const tools = ['flip', 'roll', 'win', 'lose'];
    const session = new RuleSession(rules, tools).user();
    session.call('flip', { result: { side: 'heads' } });
    expect(session.visible()).toEqual(['win']);
    session.call('roll', { result: 6 });
    expect(session.visible()).toEqual(['win']);
    session.run('win');
    session.call('roll', { result: { message: '6.0' } });
    expect(session.visible()).toEqual(['win']);
    session.run('win');
    session.call('roll', { result: { other: 6 } });
    expect(session.visible()).toEqual(tools.slice().sort());
  });

  it('a strict conditional with no matching key allows nothing, and the run ends with no_tool_allowed', () => {
    const rules = compileRules([
      { kind: 'conditional', tool: 'c', mapping: [{ when: 'yes', child: 'a' }], strict: true },
    ]);
    const session = new RuleSession(rules, ['c', 'a']).user();
    session.call('c', { result: 'maybe' });
    expect(narrow(rules, session.state, ['c', 'a'])).toMatchObject({ visible: [], ended: 'no_tool_allowed' });
    expect(session.end().endsRun).toBe(true);
  });

  it('the first matching mapping key wins', () => {
    const rules = compileRules([
      {
        kind: 'conditional',
        tool: 'c',
        mapping: [
          { when: '5', child: 'first' },
          { when: '5.0', child: 'second' },
        ],
      },
    ]);
    const session = new RuleSession(rules, ['c', 'first', 'second']).user();
    session.call('c', { result: '5.0' });
    expect(session.visible()).toEqual(['first']);
  });
});

describe('mappingKeyMatches', () => {
  it('matches true/false keys against booleans and text in any case', () => {
    expect([
      mappingKeyMatches('true', true),
      mappingKeyMatches('TRUE', 'True'),
      mappingKeyMatches('false', true),
    ]).toEqual([true, true, false]);
  });

  it('matches numeric keys numerically and other keys exactly', () => {
    expect([
      mappingKeyMatches('5', 5),
      mappingKeyMatches('5', '5.0'),
      mappingKeyMatches('2.5', '2.50'),
      mappingKeyMatches('3', '3.5'),
    ]).toEqual([true, true, true, false]);
    expect([
      mappingKeyMatches('found', 'found'),
      mappingKeyMatches('found', 'Found'),
      mappingKeyMatches('5', true),
    ]).toEqual([true, false, false]);
  });

  it('never matches objects or missing values', () => {
    expect([mappingKeyMatches('x', { x: 1 }), mappingKeyMatches('null', undefined)]).toEqual([false, false]);
  });
});

describe('JSONPath', () => {
  it('reads $, .key, [\'key\'], ["key"] and [n] steps', () => {
    const value = { a: { 'b c': [10, { d: true }] } };
    expect(resolveJsonPath(value, "$.a['b c'][1].d")).toEqual({ found: true, value: true });
    expect(resolveJsonPath(value, '$.a["b c"][0]')).toEqual({ found: true, value: 10 });
    expect(resolveJsonPath(value, 'a')).toEqual({ found: true, value: value.a });
    expect(resolveJsonPath(value, '$')).toEqual({ found: true, value });
  });

  it('does not find missing keys, out-of-range indices or inherited properties', () => {
    expect(resolveJsonPath({ a: [1] }, '$.a[3]').found).toBe(false);
    expect(resolveJsonPath({}, '$.constructor').found).toBe(false);
    expect(resolveJsonPath({ a: 1 }, '$.a.b').found).toBe(false);
  });

  it('refuses paths it cannot read', () => {
    expect(parseJsonPath('$..a').ok).toBe(false);
    expect(parseJsonPath('$[*]').ok).toBe(false);
  });
});

describe('default policy', () => {
  it('default block hides every tool no rule mentions', () => {
    const rules = compileRules([
      { kind: 'requires', tool: 'b', after: ['a'] },
      { kind: 'default', policy: 'block' },
    ]);
    const session = new RuleSession(rules, ['a', 'b', 'c']).user();
    expect(session.visible()).toEqual(['a']);
    expect(codes(session.call('c'))).toEqual(['unruled_tool_blocked']);
  });
});

describe('engine API', () => {
  const rules = compileRules([
    { kind: 'requires', tool: 'issue_refund', after: ['check'] },
    { kind: 'forbids_after', tool: 'issue_refund', forbids: ['void'] },
    { kind: 'max_count', tool: 'search', limit: 2 },
    { kind: 'terminal', tool: 'done' },
    { kind: 'requires_approval', tool: 'issue_refund' },
  ]);
  const catalog = ['check', 'issue_refund', 'void', 'search', 'done', 'free'];

  it('never mutates its inputs', () => {
    const start = startRun(
      rules,
      beginTurn(rules, startRun(rules, { ...new RuleSession(rules, catalog).state }, { userMessage: 'x' })),
      { userMessage: 'y' },
    );
    const frozen = JSON.stringify(start);
    const rulesText = JSON.stringify(rules);
    const afterCheck = record(rules, start, { tool: 'check', args: {}, result: 1, error: false });
    validate(rules, afterCheck, { tool: 'issue_refund', args: {} }, catalog);
    narrow(rules, afterCheck, catalog);
    record(rules, afterCheck, { tool: 'issue_refund', args: {}, result: 1, error: false });
    describeRuleState(rules, afterCheck, catalog);
    expect(JSON.stringify(start)).toBe(frozen);
    expect(JSON.stringify(rules)).toBe(rulesText);
  });

  it('validate reports when an allowed call needs approval, and approvalDeniedReason explains a refusal', () => {
    const session = new RuleSession(rules, catalog).user().run('check');
    expect(validate(rules, session.state, { tool: 'issue_refund', args: {} }, catalog)).toEqual({
      verdict: 'allowed',
      reasons: [],
      requiresApproval: true,
    });
    expect(approvalDeniedReason(rules, 'issue_refund')).toMatchObject({
      code: 'approval_denied',
      rule: { kind: 'requires_approval' },
    });
  });

  it('endRun and isRunEnded mark an accepted answer; startRun clears it', () => {
    const session = new RuleSession(rules, catalog).user();
    const ended = endRun(session.state, 'answered');
    expect([isRunEnded(session.state), isRunEnded(ended)]).toEqual([false, true]);
    expect(isRunEnded(startRun(rules, ended, { userMessage: 'more' }))).toBe(false);
  });

  it('dependsOn is true where a rule links the two calls, false for unrelated tools', () => {
    expect(dependsOn(rules, { tool: 'check' }, { tool: 'issue_refund' })).toBe(true);
    expect(dependsOn(rules, { tool: 'issue_refund' }, { tool: 'void' })).toBe(true);
    expect(dependsOn(rules, { tool: 'search' }, { tool: 'search' })).toBe(true);
    expect(dependsOn(rules, { tool: 'done' }, { tool: 'free' })).toBe(true);
    expect(dependsOn(rules, { tool: 'search' }, { tool: 'free' })).toBe(false);
    expect(dependsOn(rules, { tool: 'free' }, { tool: 'check' })).toBe(false);
  });

  it('describeRuleState shows visible and hidden tools with reasons, forbidden tools, counts and run counters', () => {
    const session = new RuleSession(rules, catalog).user('refund');
    session.turn();
    session.run('check', 'issue_refund', 'search');
    const view = describeRuleState(rules, session.state, catalog);
    expect(view).toMatchObject({
      run: 1,
      turn: 1,
      runTurns: 1,
      ended: null,
      visible: ['check', 'done', 'free', 'issue_refund', 'search'],
      hidden: [{ tool: 'void', reasons: [{ code: 'forbidden_after' }] }],
      forbidden: [{ tool: 'void', by: { kind: 'forbids_after' } }],
      counts: [{ tool: 'search', scope: 'run', count: 1, limit: 2 }],
      completedInSession: ['check'],
      lastCompleted: 'search',
      endCheck: { endsRun: true, reasons: [] },
    });
    expect(JSON.parse(JSON.stringify(view))).toEqual(view);
  });

  it('reasons name the rule with its file, index and path', () => {
    const session = new RuleSession(rules, catalog).user();
    expect(session.call('issue_refund')[0]?.rule).toEqual({
      kind: 'requires',
      id: 'rules.yaml#rules[0]',
      file: 'rules.yaml',
      index: 0,
      path: 'rules[0]',
    });
  });

  it('names that look like object properties are unknown tools, not crashes', () => {
    const session = new RuleSession(rules, catalog).user();
    for (const tool of ['constructor', 'toString', '__proto__', 'hasOwnProperty'])
      expect(codes(session.call(tool))).toEqual(['unknown_tool']);
  });
});
