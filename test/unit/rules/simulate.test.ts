import { describe, expect, it } from 'vitest';
import type { SimulationLine } from '../../../src/rules/index';
import { compileRuleSet, formatDiagnostic, simulateTrace } from '../../../src/rules/index';
import { loadRuleSet, loadTrace } from '../../../src/rules-files/index';
import { fixture } from './support/fixtures';
import { documentOf } from './support/rule-session';

async function simulate(rules: string[], trace: string): Promise<SimulationLine[]> {
  const loadedTrace = await loadTrace(fixture(trace));
  if (!loadedTrace.ok) throw new Error(formatDiagnostic(loadedTrace.error));
  const loaded = await loadRuleSet({ paths: rules.map(fixture), catalog: loadedTrace.trace.tools });
  if (!loaded.ok) throw new Error(loaded.errors.map(formatDiagnostic).join('\n'));
  return simulateTrace(loaded.rules, loadedTrace.trace).lines;
}

/** A line with reasons reduced to their codes, for compact expectations. */
function brief(line: SimulationLine): unknown {
  if (line.type === 'user') return line;
  if (line.type === 'text') return { ...line, reasons: line.reasons.map((r) => r.code) };
  return { ...line, calls: line.calls.map((call) => [call.tool, call.verdict, ...call.reasons.map((r) => r.code)]) };
}

describe('simulate: output per format', () => {
  it('gives the documented output for the documented trace (unified format)', async () => {
    const lines = await simulate(['spec-example.toolrail.yaml'], 'traces/spec-example.trace.json');
    expect(lines.map((line) => JSON.stringify(line))).toEqual([
      '{"event":0,"type":"user","run":1}',
      '{"event":1,"type":"calls","visible":["check_eligibility","lookup_customer"],"calls":[{"tool":"check_eligibility","verdict":"allowed","reasons":[]}]}',
      '{"event":2,"type":"text","visible":["check_eligibility","issue_refund","lookup_customer"],"endsRun":true,"reasons":[]}',
    ]);
  });

  it('contracts: prerequisite, resource mismatch, forbids_after and unmatched tools in one trace', async () => {
    const lines = await simulate(['refund-contracts'], 'traces/refund.trace.json');
    expect(lines.map(brief)).toEqual([
      { event: 0, type: 'user', run: 1 },
      {
        event: 1,
        type: 'calls',
        visible: ['lookup_customer'],
        calls: [
          ['issue_refund', 'blocked', 'precondition_not_met'],
          ['lookup_customer', 'allowed'],
        ],
      },
      {
        event: 2,
        type: 'calls',
        visible: ['check_eligibility', 'lookup_customer'],
        calls: [['check_eligibility', 'allowed']],
      },
      {
        event: 3,
        type: 'calls',
        visible: ['check_eligibility', 'issue_refund', 'lookup_customer'],
        calls: [
          ['issue_refund', 'blocked', 'resource_mismatch'],
          ['issue_refund', 'allowed'],
          ['issue_refund', 'blocked', 'forbidden_after'],
        ],
      },
      {
        event: 4,
        type: 'calls',
        visible: ['check_eligibility', 'lookup_customer', 'send_confirmation'],
        calls: [
          ['delete_account', 'blocked', 'unruled_tool_blocked'],
          ['send_confirmation', 'allowed'],
        ],
      },
      {
        event: 5,
        type: 'text',
        visible: ['check_eligibility', 'lookup_customer', 'send_confirmation'],
        endsRun: true,
        reasons: [],
      },
    ]);
  });

  it('agent-tool-graph: a blocked call names the tool to call first and carries its rule source', async () => {
    const lines = await simulate(['ticket-flow.graph.yaml'], 'traces/ticket.trace.yaml');
    const first = lines[1];
    if (first?.type !== 'calls') throw new Error('expected a calls line');
    expect(first.calls[0]?.reasons[0]).toEqual({
      code: 'prerequisite_not_met',
      message: 'Call create_ticket before assign_ticket.',
      rule: {
        kind: 'requires',
        id: `${fixture('ticket-flow.graph.yaml')}#requires.assign_ticket`,
        file: fixture('ticket-flow.graph.yaml'),
        index: 0,
        path: 'requires.assign_ticket',
        line: 3,
      },
      callFirst: ['create_ticket'],
    });
    expect(lines.slice(2).map(brief)).toEqual([
      {
        event: 2,
        type: 'calls',
        visible: ['create_ticket'],
        calls: [
          ['create_ticket', 'allowed'],
          ['assign_ticket', 'allowed'],
        ],
      },
      {
        event: 3,
        type: 'text',
        visible: ['add_comment', 'assign_ticket', 'close_ticket', 'create_ticket'],
        endsRun: true,
        reasons: [],
      },
    ]);
  });

  it('Letta: init, a refused answer while a child is pending, and run_ended after the terminal tool', async () => {
    const lines = await simulate(['letta-diagram.letta.json'], 'traces/letta.trace.json');
    expect(lines.slice(1).map(brief)).toEqual([
      {
        event: 1,
        type: 'calls',
        visible: ['must_run_first'],
        calls: [
          ['parent_tool', 'blocked', 'init_required'],
          ['must_run_first', 'allowed'],
          ['parent_tool', 'allowed'],
        ],
      },
      {
        event: 2,
        type: 'text',
        visible: ['child_tool_1', 'child_tool_2', 'child_tool_3'],
        endsRun: false,
        reasons: ['child_required'],
      },
      {
        event: 3,
        type: 'calls',
        visible: ['child_tool_1', 'child_tool_2', 'child_tool_3'],
        calls: [
          ['child_tool_1', 'allowed'],
          ['terminal_tool', 'allowed'],
          ['child_tool_2', 'blocked', 'run_ended'],
        ],
      },
      { event: 4, type: 'text', visible: [], endsRun: true, reasons: [] },
    ]);
  });

  it('AgentDock: the step sequence is enforced, then the step lists apply', async () => {
    const lines = await simulate(['research.agentdock.json'], 'traces/research.trace.json');
    expect(lines.slice(1).map(brief)).toEqual([
      {
        event: 1,
        type: 'calls',
        visible: ['web_search'],
        calls: [
          ['think', 'blocked', 'sequence_expected'],
          ['web_search', 'allowed'],
        ],
      },
      {
        event: 2,
        type: 'calls',
        visible: ['think'],
        calls: [
          ['think', 'allowed'],
          ['summarize', 'allowed'],
        ],
      },
      {
        event: 3,
        type: 'calls',
        visible: ['deep_cognitive', 'summarize', 'think', 'web_search'],
        calls: [['email', 'blocked', 'not_in_step']],
      },
      {
        event: 4,
        type: 'text',
        visible: ['deep_cognitive', 'summarize', 'think', 'web_search'],
        endsRun: true,
        reasons: [],
      },
    ]);
  });

  it('unified: continue and required_before_exit refuse answers; a refused approval blocks; calls after the answer are refused', async () => {
    const lines = await simulate(['required.toolrail.yaml'], 'traces/unified.trace.yaml');
    expect(lines.slice(1).map(brief)).toEqual([
      {
        event: 1,
        type: 'calls',
        visible: ['save_memory', 'send_email', 'write_note'],
        calls: [['write_note', 'allowed']],
      },
      {
        event: 2,
        type: 'text',
        visible: ['save_memory', 'send_email', 'write_note'],
        endsRun: false,
        reasons: ['continue_required', 'required_before_exit'],
      },
      {
        event: 3,
        type: 'calls',
        visible: ['save_memory', 'send_email', 'write_note'],
        calls: [
          ['send_email', 'blocked', 'approval_denied'],
          ['save_memory', 'allowed'],
        ],
      },
      {
        event: 4,
        type: 'text',
        visible: ['save_memory', 'send_email', 'write_note'],
        endsRun: false,
        reasons: ['continue_required', 'required_before_exit'],
      },
      {
        event: 5,
        type: 'calls',
        visible: ['save_memory', 'send_email', 'write_note'],
        calls: [
          ['save_memory', 'allowed'],
          ['send_email', 'allowed'],
        ],
      },
      { event: 6, type: 'text', visible: ['save_memory', 'send_email', 'write_note'], endsRun: true, reasons: [] },
      { event: 7, type: 'calls', visible: [], calls: [['write_note', 'blocked', 'run_ended']] },
    ]);
    const approval = lines[5];
    if (approval?.type !== 'calls') throw new Error('expected a calls line');
    expect(approval.calls[1]?.requiresApproval).toBe(true);
  });
});

describe('simulate: runs and limits', () => {
  const compile = (rules: Record<string, unknown>[] & { kind: string }[], settings = {}) => {
    const result = compileRuleSet({ documents: [documentOf(rules, 'rules.yaml', settings)] });
    if (!result.ok) throw new Error(result.errors.map(formatDiagnostic).join('\n'));
    return result.rules;
  };

  it('calls before any user message belong to a first run', () => {
    const rules = compile([{ kind: 'init', tool: 'a' }]);
    const { lines } = simulateTrace(rules, {
      tools: ['a', 'b'],
      events: [{ calls: [{ tool: 'b' }, { tool: 'a' }] }, { user: 'hi' }],
    });
    expect(lines.map(brief)).toEqual([
      {
        event: 0,
        type: 'calls',
        visible: ['a'],
        calls: [
          ['b', 'blocked', 'init_required'],
          ['a', 'allowed'],
        ],
      },
      { event: 1, type: 'user', run: 2 },
    ]);
  });

  it('a narrowing that leaves nothing ends the run with no_tool_allowed', () => {
    const rules = compile([{ kind: 'max_count', tool: 'a', limit: 1 }]);
    const { lines } = simulateTrace(rules, {
      tools: ['a'],
      events: [{ user: 'x' }, { calls: [{ tool: 'a' }] }, { calls: [{ tool: 'a' }] }, { text: 'ok' }],
    });
    expect(lines.slice(1).map(brief)).toEqual([
      { event: 1, type: 'calls', visible: ['a'], calls: [['a', 'allowed']] },
      { event: 2, type: 'calls', visible: [], ended: 'no_tool_allowed', calls: [['a', 'blocked', 'no_tool_allowed']] },
      { event: 3, type: 'text', visible: [], endsRun: true, reasons: [] },
    ]);
  });

  it('onEmpty allow-all offers every tool instead of ending the run', () => {
    const rules = compile([{ kind: 'max_count', tool: 'a', limit: 1 }], { onEmpty: 'allow-all' });
    const { lines } = simulateTrace(rules, {
      tools: ['a'],
      events: [{ calls: [{ tool: 'a' }] }, { calls: [{ tool: 'a' }] }],
    });
    expect(lines.map(brief)[1]).toEqual({ event: 1, type: 'calls', visible: ['a'], calls: [['a', 'allowed']] });
  });

  it('after maxTurnsPerRun turns a refused answer ends the run with turn_limit', () => {
    const rules = compile([{ kind: 'required_before_exit', tool: 'save' }], { maxTurnsPerRun: 2 });
    const { lines } = simulateTrace(rules, {
      tools: ['save'],
      events: [{ user: 'x' }, { text: 'a' }, { text: 'b' }, { calls: [{ tool: 'save' }] }],
    });
    expect(lines.slice(1).map(brief)).toEqual([
      { event: 1, type: 'text', visible: ['save'], endsRun: false, reasons: ['required_before_exit'] },
      { event: 2, type: 'text', visible: ['save'], endsRun: true, reasons: ['turn_limit'] },
      { event: 3, type: 'calls', visible: [], calls: [['save', 'blocked', 'run_ended']] },
    ]);
  });

  it('a turn past maxTurnsPerRun ends the run before its calls', () => {
    const rules = compile([], { maxTurnsPerRun: 1 });
    const { lines } = simulateTrace(rules, {
      tools: ['a'],
      events: [{ calls: [{ tool: 'a' }] }, { calls: [{ tool: 'a' }] }],
    });
    expect(lines.map(brief)[1]).toEqual({
      event: 1,
      type: 'calls',
      visible: [],
      calls: [['a', 'blocked', 'turn_limit']],
    });
  });

  it('a tool not in the trace catalog is unknown', () => {
    const { lines } = simulateTrace(compile([]), {
      tools: ['a'],
      events: [{ calls: [{ tool: 'constructor' }, { tool: '__proto__' }] }],
    });
    expect(lines.map(brief)[0]).toEqual({
      event: 0,
      type: 'calls',
      visible: ['a'],
      calls: [
        ['constructor', 'blocked', 'unknown_tool'],
        ['__proto__', 'blocked', 'unknown_tool'],
      ],
    });
  });
});
