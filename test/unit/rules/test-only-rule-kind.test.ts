import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuleState } from '../../../src/rules/index';
import {
  buildCompiledRuleSetSchema,
  compileRuleSet,
  compiledRuleSetErrors,
  describeRuleState,
  importLetta,
  importToolrail,
  narrow,
  renderRuleGraph,
  simulateTrace,
  validate,
} from '../../../src/rules/index';
import { registerRuleKind } from '../../../src/rules/kinds/registered-rule-kinds';
import { cooldownKind } from './support/cooldown-kind';
import { RuleSession, compileErrors, compileRules } from './support/rule-session';

const catalog = ['search', 'summarize', 'think'];
const cooldown = { kind: 'cooldown', tool: 'search', calls: 2 };

/** The kind's field of the rule state, which the registry's types do not know. */
const cooldownsOf = (state: RuleState) => (state as RuleState & { cooldowns: number[] }).cooldowns;

describe('a rule kind defined only in a test (cooldown), registered for it', () => {
  let unregister: () => void = () => {};
  beforeAll(() => {
    unregister = registerRuleKind(cooldownKind);
  });
  afterAll(() => unregister());

  it('compiles with its own load-time check, and the session input schema takes the compiled set', () => {
    expect(compileErrors([{ ...cooldown, calls: 500 }]).map((error) => error.code)).toEqual(['cooldown-too-long']);
    expect(compileErrors([{ ...cooldown, calls: 0 }]).map((error) => `${error.code} ${error.path}`)).toEqual([
      'invalid-rule rules[0].calls',
    ]);
    const rules = compileRules([cooldown, { kind: 'max_count', tool: 'think', limit: 3 }], { catalog });
    expect(buildCompiledRuleSetSchema().safeParse(rules).success).toBe(true);
    expect(compiledRuleSetErrors(rules)).toEqual([]);
    expect(compileErrors([cooldown], ['think']).map((error) => error.code)).toEqual(['unknown-tool-reference']);
  });

  it('narrows, validates and records through the engine, in a plain JSON state', () => {
    const rules = compileRules([cooldown]);
    const session = new RuleSession(rules, catalog).user().run('search');
    expect(cooldownsOf(session.state)).toEqual([3]);
    expect(session.visible()).toEqual(['summarize', 'think']);
    expect(session.hiddenReasons('search')).toEqual([
      {
        code: 'cooling_down',
        message: 'search is cooling down: call 2 other tools first.',
        rule: { kind: 'cooldown', id: 'rules.yaml#rules[0]', file: 'rules.yaml', index: 0, path: 'rules[0]' },
      },
    ]);
    expect(validate(rules, session.state, { tool: 'search', args: {} }, catalog).verdict).toBe('blocked');
    session.run('think');
    session.state = JSON.parse(JSON.stringify(session.state)) as RuleState;
    session.run('summarize');
    expect(session.visible()).toEqual(catalog);
    expect(session.codes('search')).toEqual([]);
  });

  it('is described in the rule state view and drawn in the rule graph', () => {
    const rules = compileRules([cooldown]);
    const session = new RuleSession(rules, catalog).user().run('search', 'think');
    const view = describeRuleState(rules, session.state, catalog) as ReturnType<typeof describeRuleState> & {
      cooldowns: unknown;
    };
    expect(view.cooldowns).toMatchObject([{ tool: 'search', remaining: 1, rule: { kind: 'cooldown', index: 0 } }]);
    expect(renderRuleGraph(rules, 'mermaid')).toContain('search<br/>cooldown 2 calls');
  });

  it('is read from a native format that maps to it (a Letta rule type) and from the unified format', () => {
    const letta = importLetta({
      file: 'letta.json',
      value: [{ type: 'cooldown_tool', tool_name: 'search', cooldown_calls: 2 }],
    });
    expect(letta.ok && letta.document.rules.map(({ source: _source, ...body }) => body)).toEqual([cooldown]);
    const wrong = importLetta({ file: 'letta.json', value: [{ type: 'cooldown_tool', tool_name: 'search' }] });
    expect(wrong.ok ? [] : wrong.errors.map((error) => error.path)).toEqual(['[0].cooldown_calls']);
    const unified = importToolrail({ file: 'rules.yaml', value: { toolrail: 1, rules: [cooldown] } });
    expect(unified.ok && compileRuleSet({ documents: [unified.document] }).ok).toBe(true);
  });

  it('is simulated, and reported rather than enforced in shadow, like any kind', () => {
    const rules = compileRules([{ ...cooldown, enforcement: 'shadow' }]);
    const trace = { tools: catalog, events: [{ calls: [{ tool: 'search' }, { tool: 'search' }] }] };
    const [line] = simulateTrace(rules, trace).lines;
    expect(line?.type === 'calls' && line.calls.map((call) => [call.verdict, call.shadowRefused?.[0]?.code])).toEqual([
      ['allowed', undefined],
      ['allowed', 'cooling_down'],
    ]);
    const enforced = compileRules([cooldown]);
    const state = new RuleSession(enforced, catalog).user().run('search').state;
    expect(narrow(enforced, state, catalog).hidden.map(({ tool }) => tool)).toEqual(['search']);
  });

  it('refuses a second kind of the same name, and is no longer known once unregistered', () => {
    expect(() => registerRuleKind(cooldownKind)).toThrow(/a rule kind named cooldown is already registered/);
    unregister();
    unregister = () => {};
    expect(compileErrors([cooldown]).map((error) => `${error.code} ${error.path}`)).toEqual([
      'invalid-rule rules[0].kind',
    ]);
  });
});
