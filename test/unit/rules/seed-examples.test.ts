import { describe, expect, it } from 'vitest';
import { renderRuleGraph } from '../../../src/rules/index';
import { loadFixtureRules } from './support/fixtures';
import { RuleSession } from './support/rule-session';

const codes = (reasons: { code: string }[]) => reasons.map((reason) => reason.code);

describe('seed: the ticket flow (agent-tool-graph)', () => {
  const catalog = ['create_ticket', 'assign_ticket', 'close_ticket', 'add_comment', 'reopen_ticket'];

  it('assigning before creating is refused with a message that says what to call first', async () => {
    const session = new RuleSession(await loadFixtureRules(['ticket-flow.graph.yaml'], catalog), catalog).user(
      'fix my ticket',
    );
    const [reason] = session.call('assign_ticket', { args: { ticket_id: 'T-1' } });
    expect(reason?.code).toBe('prerequisite_not_met');
    expect(reason?.message).toBe('Call create_ticket before assign_ticket.');
    expect(reason?.callFirst).toEqual(['create_ticket']);
    expect(reason?.rule).toMatchObject({ kind: 'requires', path: 'requires.assign_ticket', line: 3 });
  });

  it('only create_ticket is offered until it completed; then the rest of the flow opens', async () => {
    const session = new RuleSession(await loadFixtureRules(['ticket-flow.graph.yaml'], catalog), catalog).user();
    expect(session.turn()).toEqual(['create_ticket']);
    session.run('create_ticket');
    expect(session.turn()).toEqual(['add_comment', 'assign_ticket', 'close_ticket', 'create_ticket']);
    session.run('assign_ticket', 'close_ticket');
    expect(session.turn()).toContain('reopen_ticket');
  });

  it('reopening a ticket before creating it names the whole chain, earliest first', async () => {
    const session = new RuleSession(await loadFixtureRules(['ticket-flow.graph.yaml'], catalog), catalog).user();
    expect(session.call('reopen_ticket')[0]?.callFirst).toEqual(['create_ticket', 'close_ticket']);
  });

  it('completed prerequisites hold for the whole session (later runs too)', async () => {
    const session = new RuleSession(await loadFixtureRules(['ticket-flow.graph.yaml'], catalog), catalog).user();
    session.run('create_ticket');
    session.user('and now assign it');
    expect(session.call('assign_ticket')).toEqual([]);
  });

  it('the folder example: commit needs a write, which needs an open folder', async () => {
    const tools = ['open_folder', 'search_within_folder', 'read_file', 'write_file', 'close_folder', 'commit_changes'];
    const session = new RuleSession(await loadFixtureRules(['folder.graph.json'], tools), tools).user();
    expect(session.call('commit_changes')[0]?.callFirst).toEqual(['open_folder', 'write_file']);
    session.run('open_folder', 'write_file', 'commit_changes');
  });
});

describe('seed: the refund flow (contracts)', () => {
  const catalog = ['lookup_customer', 'check_eligibility', 'issue_refund', 'send_confirmation', 'delete_account'];

  it('follows lookup → check → refund → confirmation, for the same order, once', async () => {
    const session = new RuleSession(await loadFixtureRules(['refund-contracts'], catalog), catalog).user(
      'Refund order ORD-123',
    );
    expect(session.turn()).toEqual(['lookup_customer']);
    session.run('lookup_customer');
    session.call('check_eligibility', {
      args: { order_id: 'ORD-123' },
      result: { eligible: true, reason: 'within_policy' },
    });
    expect(codes(session.call('issue_refund', { args: { order_id: 'ORD-999' } }))).toEqual(['resource_mismatch']);
    expect(session.call('issue_refund', { args: { order_id: 'ORD-123', amount: 20 } })).toEqual([]);
    expect(codes(session.call('issue_refund', { args: { order_id: 'ORD-123' } }))).toEqual(['forbidden_after']);
    expect(session.turn()).toEqual(['check_eligibility', 'lookup_customer', 'send_confirmation']);
    expect(session.call('send_confirmation')).toEqual([]);
  });

  it('a tool without a contract is never offered', async () => {
    const session = new RuleSession(await loadFixtureRules(['refund-contracts'], catalog), catalog).user();
    session.run('lookup_customer');
    expect(session.turn()).not.toContain('delete_account');
    expect(codes(session.call('delete_account'))).toEqual(['unruled_tool_blocked']);
  });
});

describe('seed: the deployment pipeline (contracts)', () => {
  const catalog = ['fetch_config', 'run_tests', 'approve_deploy', 'deploy', 'verify', 'rollback'];

  it('deploy needs passing tests and an approval, then forbids deploy and rollback', async () => {
    const session = new RuleSession(await loadFixtureRules(['deployment-contracts'], catalog), catalog).user('ship it');
    session.run('fetch_config');
    session.call('run_tests', { result: { all_passed: false } });
    session.call('approve_deploy', { result: { approved: true } });
    expect(codes(session.call('deploy'))).toEqual(['output_condition_failed']);
    session.call('run_tests', { result: { all_passed: true } });
    expect(session.call('deploy')).toEqual([]);
    expect(session.turn()).toEqual(['approve_deploy', 'fetch_config', 'run_tests', 'verify']);
    expect(codes(session.call('rollback'))).toEqual(['forbidden_after']);
  });

  it('without an approval deploy says which tool to call', async () => {
    const session = new RuleSession(await loadFixtureRules(['deployment-contracts'], catalog), catalog).user();
    session.call('run_tests', { result: { all_passed: true } });
    const [reason] = session.call('deploy');
    expect(reason).toMatchObject({ code: 'precondition_not_met', callFirst: ['approve_deploy'] });
  });
});

describe('seed: the data pipeline (contracts)', () => {
  const catalog = ['validate_schema', 'transform_data', 'write_output'];

  it('write_output needs a valid schema and a transform of the same dataset, after 2 turns', async () => {
    const session = new RuleSession(await loadFixtureRules(['data-pipeline-contracts'], catalog), catalog).user(
      'load ds-1',
    );
    session.turn();
    session.call('validate_schema', { args: { dataset_id: 'ds-1' }, result: { valid: true } });
    session.call('transform_data', { args: { dataset_id: 'ds-2' } });
    expect(session.turn()).toEqual(['transform_data', 'validate_schema']);
    expect(codes(session.call('write_output', { args: { dataset_id: 'ds-1' } }))).toEqual([
      'resource_mismatch',
      'step_count_too_low',
    ]);
    session.call('transform_data', { args: { dataset_id: 'ds-1' } });
    session.turn();
    expect(session.visible()).toContain('write_output');
    expect(codes(session.call('write_output', { args: { dataset_id: 'ds-2' } }))).toEqual(['resource_mismatch']);
    expect(session.call('write_output', { args: { dataset_id: 'ds-1' } })).toEqual([]);
  });

  it('two bound preconditions must hold for one common dataset before the tool is visible', async () => {
    const session = new RuleSession(await loadFixtureRules(['data-pipeline-contracts'], catalog), catalog).user();
    session.turn();
    session.turn();
    session.turn();
    session.call('validate_schema', { args: { dataset_id: 'ds-1' }, result: { valid: true } });
    session.call('transform_data', { args: { dataset_id: 'ds-2' } });
    expect(session.visible()).not.toContain('write_output');
  });
});

describe('seed: combining preconditions (transfer_funds)', () => {
  it('all four preconditions must hold', async () => {
    const catalog = ['verify_identity', 'check_balance', 'approve_transfer', 'transfer_funds'];
    const session = new RuleSession(await loadFixtureRules(['transfer-contracts'], catalog), catalog).user();
    session.turn();
    expect(codes(session.call('transfer_funds', { args: { account_id: 'acc-1' } }))).toEqual([
      'precondition_not_met',
      'precondition_not_met',
      'precondition_not_met',
      'step_count_too_low',
    ]);
    session.run('verify_identity');
    session.call('check_balance', { args: { account_id: 'acc-1' }, result: { sufficient: true } });
    session.call('approve_transfer', { result: { approved: true } });
    session.turn();
    session.turn();
    session.turn();
    expect(session.call('transfer_funds', { args: { account_id: 'acc-1' } })).toEqual([]);
  });
});

describe('seed: the research sequence and evaluation mode (AgentDock)', () => {
  it('the research step offers web_search, think, summarize in order, then its allowed list', async () => {
    const catalog = ['web_search', 'think', 'summarize', 'deep_cognitive', 'email'];
    const session = new RuleSession(await loadFixtureRules(['research.agentdock.json'], catalog), catalog).user(
      'research X',
    );
    const offered: string[][] = [];
    for (const tool of ['web_search', 'think', 'summarize']) {
      offered.push(session.turn());
      session.run(tool);
    }
    offered.push(session.turn());
    expect(offered).toEqual([
      ['web_search'],
      ['think'],
      ['summarize'],
      ['deep_cognitive', 'summarize', 'think', 'web_search'],
    ]);
  });

  it('evaluation mode starts on a matching message and enforces critique → debate → reflect', async () => {
    const catalog = ['critique', 'debate', 'reflect', 'search', 'chat_tool'];
    const rules = await loadFixtureRules(['evaluation.agentdock.json'], catalog);
    expect(new RuleSession(rules, catalog).user('hi there').turn()).toHaveLength(5);
    const session = new RuleSession(rules, catalog).user('What is your opinion of this plan?');
    expect(session.turn()).toEqual(['critique']);
    expect(codes(session.call('reflect'))).toEqual(['sequence_expected']);
    session.run('critique', 'debate');
    expect(session.turn()).toEqual(['reflect']);
  });
});

describe("seed: Letta's diagram", () => {
  const catalog = [
    'must_run_first',
    'parent_tool',
    'child_tool_1',
    'child_tool_2',
    'child_tool_3',
    'terminal_tool',
    'other',
  ];

  it('must_run_first comes first, parent_tool is followed by a child, terminal_tool stops', async () => {
    const session = new RuleSession(await loadFixtureRules(['letta-diagram.letta.json'], catalog), catalog).user();
    expect(session.turn()).toEqual(['must_run_first']);
    session.run('must_run_first', 'parent_tool');
    expect(session.turn()).toEqual(['child_tool_1', 'child_tool_2', 'child_tool_3']);
    expect(session.end().codes).toEqual(['child_required']);
    session.run('child_tool_2', 'terminal_tool');
    expect(session.state.ended).toBe('terminal');
    expect(session.turn()).toEqual([]);
  });

  it('draws as the diagram: start → init, parent → children, terminal → end', async () => {
    const mermaid = renderRuleGraph(await loadFixtureRules(['letta-diagram.letta.json']), 'mermaid');
    expect(mermaid).toContain('|"init"|');
    expect(mermaid.match(/\|"child"\|/g)).toHaveLength(3);
    expect(mermaid).toContain('|"terminal"|');
  });
});
