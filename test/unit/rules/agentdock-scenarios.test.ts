import { describe, expect, it } from 'vitest';
import { describeRuleState, importAgentDock } from '../../../src/rules/index';
import { RuleSession, agentDockRules } from './support/rule-session';

const catalog = [
  'tool1',
  'tool2',
  'tool3',
  'tool4',
  'test-tool',
  'allowed-tool-1',
  'allowed-tool-2',
  'denied-tool-1',
  'denied-tool-2',
];

/** The orchestration of AgentDock's own manager tests, in the same order. */
const fixture = {
  steps: [
    { name: 'default-step', description: 'default', isDefault: true },
    {
      name: 'conditional-step',
      description: 'after test-tool',
      conditions: [{ type: 'tool_used', value: 'test-tool' }],
    },
    {
      name: 'sequence-step',
      description: 'after the sequence',
      sequence: ['tool1', 'tool2', 'tool3'],
      conditions: [{ type: 'sequence_match' }],
    },
    {
      name: 'allowed-tools-step',
      description: 'allowed',
      availableTools: { allowed: ['allowed-tool-1', 'allowed-tool-2'] },
    },
    {
      name: 'denied-tools-step',
      description: 'denied',
      availableTools: { denied: ['denied-tool-1', 'denied-tool-2'] },
    },
  ],
};

function activeStep(session: RuleSession): string | null {
  return describeRuleState(session.rules, session.state, session.catalog).steps[0]?.active ?? null;
}

describe('AgentDock: active step selection', () => {
  it('B29: with nothing used the default step is active and every tool is visible', () => {
    const session = new RuleSession(agentDockRules(fixture, catalog), catalog).user();
    expect(activeStep(session)).toBe('default-step');
    expect(session.turn()).toEqual([...catalog].sort());
  });

  it('B28/B34: a tool_used condition activates its step once that tool completed', () => {
    const session = new RuleSession(agentDockRules(fixture, catalog), catalog).user();
    session.run('tool4');
    expect(activeStep(session)).toBe('default-step');
    session.run('test-tool');
    expect(activeStep(session)).toBe('conditional-step');
  });

  it('B32/B37: sequence_match activates a step when the last completed tools equal its sequence', () => {
    const session = new RuleSession(agentDockRules(fixture, catalog), catalog).user();
    session.run('tool4', 'tool1', 'tool2');
    expect(activeStep(session)).toBe('default-step');
    session.run('tool3');
    expect(activeStep(session)).toBe('sequence-step');
    expect(session.turn()).toEqual(['tool1']);
  });

  it('B38/B40: a different or shorter tail does not match', () => {
    const session = new RuleSession(agentDockRules(fixture, catalog), catalog).user();
    session.run('tool2', 'tool3');
    expect(activeStep(session)).toBe('default-step');
    session.run('tool1', 'tool2', 'tool4');
    expect(activeStep(session)).toBe('default-step');
  });

  it('the first matching step in order wins over later ones', () => {
    const session = new RuleSession(agentDockRules(fixture, catalog), catalog).user();
    session.run('tool1', 'tool2', 'test-tool');
    expect(activeStep(session)).toBe('conditional-step');
  });

  it('an active step stays active when no step matches any more (sticky)', () => {
    const config = {
      steps: [
        { name: 'idle', isDefault: true },
        {
          name: 'review',
          conditions: [{ type: 'message_contains', value: 'review' }],
          availableTools: { allowed: ['tool1'] },
        },
      ],
    };
    const session = new RuleSession(agentDockRules(config, catalog), catalog).user('please review this');
    expect(activeStep(session)).toBe('review');
    session.user('thanks');
    expect(activeStep(session)).toBe('review');
    expect(session.turn()).toEqual(['tool1']);
  });

  it('B31: a lone step without conditions is the default', () => {
    const session = new RuleSession(
      agentDockRules({ steps: [{ name: 'only', availableTools: { allowed: ['tool2'] } }] }, catalog),
      catalog,
    ).user();
    expect(activeStep(session)).toBe('only');
    expect(session.turn()).toEqual(['tool2']);
  });

  it('B33/B41: an unknown condition type is refused at load', () => {
    const result = importAgentDock({
      file: 'o.json',
      value: { steps: [{ name: 's', conditions: [{ type: 'time_of_day', value: 'x' }] }] },
    });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.errors[0]).toMatchObject({ code: 'unknown-condition', path: 'steps[0].conditions[0].type' });
  });

  it('B36: tool_used without a value is refused at load', () => {
    expect(() => agentDockRules({ steps: [{ name: 's', conditions: [{ type: 'tool_used' }] }] })).toThrow(/no value/);
  });

  it('B39: sequence_match on a step without a sequence is refused at load', () => {
    expect(() => agentDockRules({ steps: [{ name: 's', conditions: [{ type: 'sequence_match' }] }] })).toThrow(
      /sequence/,
    );
  });

  it('B43: a config with no steps constrains nothing', () => {
    const session = new RuleSession(agentDockRules({ steps: [] }, catalog), catalog).user();
    expect(session.turn()).toHaveLength(catalog.length);
  });

  it('message conditions match the latest user message, case-insensitively', () => {
    const config = {
      steps: [
        { name: 'idle', isDefault: true },
        {
          name: 'regex',
          conditions: [{ type: 'message_regex', value: '^refund\\s+ORD-\\d+' }],
          availableTools: { allowed: ['tool1'] },
        },
        {
          name: 'prefix',
          conditions: [{ type: 'message_starts_with', value: 'deploy' }],
          availableTools: { allowed: ['tool2'] },
        },
      ],
    };
    const rules = agentDockRules(config, catalog);
    expect(new RuleSession(rules, catalog).user('Refund ORD-12 now').turn()).toEqual(['tool1']);
    expect(new RuleSession(rules, catalog).user('  Deploy the app').turn()).toEqual(['tool2']);
    expect(new RuleSession(rules, catalog).user('deployment? refund ORD-1').turn()).toEqual(['tool2']);
  });
});

describe('AgentDock: tool lists', () => {
  const stepWith = (availableTools: Record<string, unknown>) => ({
    steps: [{ name: 'only', isDefault: true, availableTools }],
  });

  it('B46: an allowed list keeps only its tools', () => {
    const session = new RuleSession(
      agentDockRules(stepWith({ allowed: ['allowed-tool-1', 'allowed-tool-2'] }), catalog),
      catalog,
    ).user();
    expect(session.turn()).toEqual(['allowed-tool-1', 'allowed-tool-2']);
    expect(session.codes('tool1')).toEqual(['not_in_step']);
  });

  it('B47: a denied list removes its tools', () => {
    const session = new RuleSession(
      agentDockRules(stepWith({ denied: ['denied-tool-1', 'denied-tool-2'] }), catalog),
      catalog,
    ).user();
    expect(session.turn()).not.toContain('denied-tool-1');
    expect(session.turn()).toContain('tool1');
  });

  it('allowed and denied together mean allowed AND NOT denied (documented)', () => {
    const rules = agentDockRules(
      stepWith({ allowed: ['allowed-tool-1', 'allowed-tool-2'], denied: ['allowed-tool-2'] }),
      catalog,
    );
    expect(new RuleSession(rules, catalog).user().turn()).toEqual(['allowed-tool-1']);
  });

  it('names in the lists may be globs such as *cognitive* (documented)', () => {
    const tools = ['think_cognitive_v1', 'cognitive', 'web_search', 'summarize'];
    const rules = agentDockRules(stepWith({ allowed: ['web_search', '*cognitive*'] }), tools);
    expect(new RuleSession(rules, tools).user().turn()).toEqual(['cognitive', 'think_cognitive_v1', 'web_search']);
  });
});

describe('AgentDock: step sequences', () => {
  const research = {
    steps: [
      {
        name: 'structured_research',
        isDefault: true,
        availableTools: { allowed: ['web_search', 'think', 'summarize', '*cognitive*'] },
        sequence: ['web_search', 'think', 'summarize'],
      },
    ],
  };
  const tools = ['web_search', 'think', 'summarize', 'deep_cognitive', 'send_email'];

  it('B22: while a sequence is unfinished only its expected tool is visible, and it advances on completion', () => {
    const session = new RuleSession(agentDockRules(research, tools), tools).user();
    const offered: string[][] = [];
    for (const tool of ['web_search', 'think', 'summarize']) {
      offered.push(session.turn());
      session.run(tool);
    }
    expect(offered).toEqual([['web_search'], ['think'], ['summarize']]);
  });

  it('B18: a call out of order is blocked and does not advance the sequence', () => {
    const session = new RuleSession(agentDockRules(research, tools), tools).user();
    expect(session.codes('think')).toEqual(['sequence_expected']);
    expect(session.turn()).toEqual(['web_search']);
  });

  it('a failed call of the expected tool does not advance the sequence', () => {
    const session = new RuleSession(agentDockRules(research, tools), tools).user();
    session.call('web_search', { error: true });
    expect(session.turn()).toEqual(['web_search']);
  });

  it("B20/B21: once finished, the step's own lists apply (not every tool)", () => {
    const session = new RuleSession(agentDockRules(research, tools), tools).user();
    session.run('web_search', 'think', 'summarize');
    expect(session.turn()).toEqual(['deep_cognitive', 'summarize', 'think', 'web_search']);
    expect(session.codes('send_email')).toEqual(['not_in_step']);
  });

  it('flexible sequences accept any alternative at a position (documented)', () => {
    const config = {
      steps: [{ name: 's', isDefault: true, sequence: [['think', 'reflect'], 'web_search', ['summarize', 'save']] }],
    };
    const all = ['think', 'reflect', 'web_search', 'summarize', 'save'];
    const session = new RuleSession(agentDockRules(config, all), all).user();
    expect(session.turn()).toEqual(['reflect', 'think']);
    session.run('reflect');
    expect(session.turn()).toEqual(['web_search']);
    session.run('web_search');
    expect(session.turn()).toEqual(['save', 'summarize']);
  });

  it("a sequence position the step's own lists forbid is refused at load", () => {
    const config = {
      steps: [{ name: 's', isDefault: true, availableTools: { allowed: ['a'] }, sequence: ['a', 'b'] }],
    };
    expect(() => agentDockRules(config, ['a', 'b'])).toThrow(/position 2 can never be reached/);
  });

  it('B23: an expected tool missing from the catalog blocks every tool (no silent widening)', () => {
    const rules = agentDockRules({ steps: [{ name: 's', isDefault: true, sequence: ['gone', 'tool1'] }] });
    const session = new RuleSession(rules, ['tool1', 'tool2']).user();
    expect(session.turn()).toEqual([]);
  });

  it('the position resets when the active step changes', () => {
    const config = {
      steps: [
        { name: 'plan', isDefault: true, sequence: ['tool1', 'tool2'] },
        { name: 'act', conditions: [{ type: 'tool_used', value: 'tool3' }], sequence: ['tool4', 'tool1'] },
      ],
    };
    const session = new RuleSession(agentDockRules(config, catalog), catalog).user();
    session.run('tool1', 'tool2', 'tool3');
    expect(activeStep(session)).toBe('act');
    expect(session.turn()).toEqual(['tool4']);
  });

  it('the evaluation mode example: a critique request runs critique, debate, reflect in order', () => {
    const config = {
      steps: [
        { name: 'Default', isDefault: true },
        {
          name: 'EvaluationMode',
          description: 'Critical evaluation sequence',
          conditions: [{ type: 'message_regex', value: 'critique|evaluate|assess|review|analyze|opinion' }],
          sequence: ['critique', 'debate', 'reflect'],
          availableTools: { allowed: ['critique', 'debate', 'reflect', 'search'] },
        },
      ],
    };
    const tools = ['critique', 'debate', 'reflect', 'search', 'write'];
    const rules = agentDockRules(config, tools);
    expect(new RuleSession(rules, tools).user('hello').turn()).toEqual([...tools].sort());
    const session = new RuleSession(rules, tools).user('Please critique my essay');
    const offered: string[][] = [];
    for (const tool of ['critique', 'debate', 'reflect']) {
      offered.push(session.turn());
      session.run(tool);
    }
    offered.push(session.turn());
    expect(offered).toEqual([['critique'], ['debate'], ['reflect'], ['critique', 'debate', 'reflect', 'search']]);
  });
});
