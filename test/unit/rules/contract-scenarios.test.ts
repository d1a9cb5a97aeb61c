import { describe, expect, it } from 'vitest';
import { importContract } from '../../../src/rules/index';
import { RuleSession, contractRules } from './support/rule-session';

const codes = (reasons: { code: string }[]) => reasons.map((reason) => reason.code);
const allow = { unmatchedPolicy: 'allow' };

describe('contracts: requires_prior_tool (C1-C3)', () => {
  const catalog = ['check_eligibility', 'issue_refund'];
  const rules = contractRules(
    { issue_refund: { tool: 'issue_refund', preconditions: [{ requires_prior_tool: 'check_eligibility' }] } },
    { session: allow },
  );

  it('C1: the gated tool is removed at narrowing while its prior tool has not run', () => {
    const session = new RuleSession(rules, catalog).user();
    expect(session.turn()).toEqual(['check_eligibility']);
  });

  it('C2: a proposed call of it anyway is blocked at validation', () => {
    const session = new RuleSession(rules, catalog).user();
    const [reason] = session.call('issue_refund');
    expect(reason).toMatchObject({ code: 'precondition_not_met', callFirst: ['check_eligibility'] });
    expect(reason?.rule).toMatchObject({
      kind: 'precondition',
      file: 'contracts/issue_refund.yaml',
      path: 'preconditions[0]',
    });
  });

  it('C3: after the prior tool completed it is visible and allowed', () => {
    const session = new RuleSession(rules, catalog).user().run('check_eligibility');
    expect(session.turn()).toEqual(catalog.slice().sort());
    expect(session.call('issue_refund')).toEqual([]);
  });

  it('a failed prior call does not satisfy the precondition', () => {
    const session = new RuleSession(rules, catalog).user();
    session.call('check_eligibility', { error: true });
    expect(codes(session.call('issue_refund'))).toEqual(['precondition_not_met']);
  });
});

describe('contracts: with_output (C4-C10)', () => {
  const catalog = ['check_eligibility', 'issue_refund', 'calculate_var', 'downstream'];
  const rules = contractRules(
    {
      issue_refund: {
        tool: 'issue_refund',
        preconditions: [
          {
            requires_prior_tool: 'check_eligibility',
            with_output: [
              { path: '$.eligible', equals: true },
              { path: '$.reason', exists: true },
            ],
          },
        ],
      },
      downstream: {
        tool: 'downstream',
        preconditions: [
          {
            requires_prior_tool: 'calculate_var',
            with_output: [
              { path: '$.status', equals: 'OK' },
              { path: '$.var_value', gte: 0.01, lte: 0.05 },
            ],
          },
        ],
      },
    },
    { session: allow },
  );
  const after = (tool: string, result: unknown, target: string) => {
    const session = new RuleSession(rules, catalog).user();
    session.call(tool, { result });
    return { visible: session.visible().includes(target), codes: codes(session.call(target)) };
  };

  it('C4: every condition holding allows the call', () => {
    expect(after('check_eligibility', { eligible: true, reason: 'within policy' }, 'issue_refund')).toEqual({
      visible: true,
      codes: [],
    });
  });

  it('C5: a wrong value blocks it and hides it', () => {
    expect(after('check_eligibility', { eligible: false, reason: 'late' }, 'issue_refund')).toEqual({
      visible: false,
      codes: ['output_condition_failed'],
    });
  });

  it('C6: a missing field fails exists (all conditions must hold)', () => {
    expect(after('check_eligibility', { eligible: true }, 'issue_refund').codes).toEqual(['output_condition_failed']);
  });

  it('C7/C8: lte holds at or below the threshold only', () => {
    expect(after('calculate_var', { status: 'OK', var_value: 0.03 }, 'downstream').codes).toEqual([]);
    expect(after('calculate_var', { status: 'OK', var_value: 0.07 }, 'downstream').codes).toEqual([
      'output_condition_failed',
    ]);
  });

  it('C9: a value below the gte bound is blocked', () => {
    expect(after('calculate_var', { status: 'OK', var_value: 0.005 }, 'downstream').codes).toEqual([
      'output_condition_failed',
    ]);
  });

  it('C10: a numeric string fails gte/lte (fail-closed)', () => {
    expect(after('calculate_var', { status: 'OK', var_value: '0.03' }, 'downstream').codes).toEqual([
      'output_condition_failed',
    ]);
  });

  it('the most recent completed call of the prior tool is the one that counts', () => {
    const session = new RuleSession(rules, catalog).user();
    session.call('check_eligibility', { result: { eligible: true, reason: 'ok' } });
    session.call('check_eligibility', { result: { eligible: false, reason: 'changed' } });
    const [reason] = session.call('issue_refund');
    expect(reason?.code).toBe('output_condition_failed');
    expect(reason?.message).toContain('$.eligible equal to true');
    expect(reason?.message).toContain('false');
  });
});

describe('contracts: step count (C11)', () => {
  it('C11: a tool needing 3 earlier turns is blocked at 2 and allowed at 3', () => {
    const rules = contractRules(
      { tool: { tool: 'tool', preconditions: [{ requires_step_count: { gte: 3 } }] } },
      { session: allow },
    );
    const session = new RuleSession(rules, ['tool', 'other']).user();
    session.turn();
    session.turn();
    expect(session.turn()).toEqual(['other']);
    expect(codes(session.call('tool'))).toEqual(['step_count_too_low']);
    expect(session.turn()).toEqual(['other', 'tool']);
    expect(session.call('tool')).toEqual([]);
  });
});

describe('contracts: resource binding (C12, C13)', () => {
  const catalog = ['check_eligibility', 'issue_refund'];
  const rules = contractRules(
    {
      issue_refund: {
        tool: 'issue_refund',
        preconditions: [
          {
            requires_prior_tool: 'check_eligibility',
            resource: { bind_from: 'arguments', path: '$.order_id' },
            with_output: [{ path: '$.eligible', equals: true }],
            description: 'Eligibility must be checked for the same order',
          },
        ],
      },
    },
    { session: allow },
  );

  it('C12: checking order A and refunding order B is blocked with resource_mismatch', () => {
    const session = new RuleSession(rules, catalog).user();
    session.call('check_eligibility', { args: { order_id: 'A' }, result: { eligible: true } });
    expect(session.visible()).toContain('issue_refund');
    const [reason] = session.call('issue_refund', { args: { order_id: 'B' } });
    expect(reason).toMatchObject({ code: 'resource_mismatch', callFirst: ['check_eligibility'] });
  });

  it('C13: refunding the checked order is allowed', () => {
    const session = new RuleSession(rules, catalog).user();
    session.call('check_eligibility', { args: { order_id: 'A' }, result: { eligible: true } });
    expect(session.call('issue_refund', { args: { order_id: 'A' } })).toEqual([]);
  });

  it('the output condition is read for the bound resource only', () => {
    const session = new RuleSession(rules, catalog).user();
    session.call('check_eligibility', { args: { order_id: 'A' }, result: { eligible: true } });
    session.call('check_eligibility', { args: { order_id: 'B' }, result: { eligible: false } });
    expect(session.call('issue_refund', { args: { order_id: 'A' } })).toEqual([]);
    expect(codes(session.call('issue_refund', { args: { order_id: 'B' } }))).toEqual(['output_condition_failed']);
  });

  it('a call without the bound argument is a resource mismatch', () => {
    const session = new RuleSession(rules, catalog).user();
    session.call('check_eligibility', { args: { order_id: 'A' }, result: { eligible: true } });
    expect(codes(session.call('issue_refund', { args: {} }))).toEqual(['resource_mismatch']);
  });

  it('at narrowing any eligible resource makes the tool visible, and none hides it', () => {
    const session = new RuleSession(rules, catalog).user();
    session.call('check_eligibility', { args: { order_id: 'B' }, result: { eligible: false } });
    expect(session.visible()).toEqual(['check_eligibility']);
    session.call('check_eligibility', { args: { order_id: 'A' }, result: { eligible: true } });
    expect(session.visible()).toEqual(catalog.slice().sort());
  });
});

describe('contracts: forbids_after and unmatched tools (C14-C16)', () => {
  it('C14: forbids_after removes and blocks the tools for the rest of the session, across runs', () => {
    const catalog = ['issue_refund', 'void_order', 'other'];
    const rules = contractRules(
      { issue_refund: { tool: 'issue_refund', forbids_after: ['issue_refund', 'void_order'] } },
      { session: allow },
    );
    const session = new RuleSession(rules, catalog).user().run('issue_refund');
    expect(session.turn()).toEqual(['other']);
    session.user('next request');
    expect(session.turn()).toEqual(['other']);
    expect(codes(session.call('void_order'))).toEqual(['forbidden_after']);
  });

  it('C14: forbids_after takes effect within the same response', () => {
    const rules = contractRules(
      { deploy: { tool: 'deploy', forbids_after: ['deploy', 'rollback'] } },
      { session: allow },
    );
    const session = new RuleSession(rules, ['deploy', 'rollback']).user();
    expect([session.codes('deploy'), session.codes('rollback'), session.codes('deploy')]).toEqual([
      [],
      ['forbidden_after'],
      ['forbidden_after'],
    ]);
  });

  it('C15: a tool without a contract is blocked by default', () => {
    const rules = contractRules({ lookup: { tool: 'lookup' } });
    const session = new RuleSession(rules, ['lookup', 'delete_account']).user();
    expect(session.turn()).toEqual(['lookup']);
    const [reason] = session.call('delete_account');
    expect(reason).toMatchObject({ code: 'unruled_tool_blocked', rule: { kind: 'default', file: 'contracts' } });
  });

  it('C16: unmatchedPolicy allow lets tools without a contract through', () => {
    const rules = contractRules({ lookup: { tool: 'lookup' } }, { session: allow });
    expect(new RuleSession(rules, ['lookup', 'delete_account']).user().turn()).toEqual(['delete_account', 'lookup']);
  });

  it('C17-C19: phases and gates load with a warning that toolrail does not enforce them', () => {
    const result = importContract({
      file: 'c/deploy.yaml',
      value: { tool: 'deploy', side_effect: 'write', gate: 'allow', transitions: { valid_in_phases: ['ready'] } },
    });
    expect(result.ok).toBe(true);
    expect(result.warnings.map((w) => w.path).sort()).toEqual(['gate', 'transitions']);
  });

  it('the tool name comes from the file name when the contract has no tool field', () => {
    const rules = contractRules(
      { send_confirmation: { preconditions: [{ requires_prior_tool: 'issue_refund' }] } },
      { session: allow },
    );
    const session = new RuleSession(rules, ['send_confirmation', 'issue_refund']).user();
    expect(session.turn()).toEqual(['issue_refund']);
  });
});
