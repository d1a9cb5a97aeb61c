import { describe, expect, it } from 'vitest';
import { compileRuleSet, dependsOn, importLetta, narrow, validate } from '../../../src/rules/index';
import { RuleSession, lettaRules } from './support/rule-session';

const Init = (tool: string) => ({ type: 'run_first', tool_name: tool });
const Child = (tool: string, children: string[]) => ({ type: 'constrain_child_tools', tool_name: tool, children });
const Parent = (tool: string, children: string[]) => ({ type: 'parent_last_tool', tool_name: tool, children });
const Cond = (tool: string, mapping: Record<string, string>, extra: Record<string, unknown> = {}) => ({
  type: 'conditional',
  tool_name: tool,
  child_output_mapping: mapping,
  ...extra,
});
const Max = (tool: string, limit: number) => ({ type: 'max_count_per_step', tool_name: tool, max_count_limit: limit });
const Term = (tool: string) => ({ type: 'exit_loop', tool_name: tool });
const Cont = (tool: string) => ({ type: 'continue_loop', tool_name: tool });
const Req = (tool: string) => ({ type: 'required_before_exit', tool_name: tool });
const Appr = (tool: string) => ({ type: 'requires_approval', tool_name: tool });

function session(rules: Record<string, unknown>[], catalog: string[]): RuleSession {
  return new RuleSession(lettaRules(rules, catalog), catalog).user('go');
}

describe('Letta A: allowed-set basics', () => {
  it('A1: refuses at load an init tool that is not in the catalog', () => {
    const imported = importLetta({ file: 'letta.json', value: [Init('start'), Init('prep')] });
    if (!imported.ok) throw new Error('import failed');
    const result = compileRuleSet({ documents: [imported.document], catalog: [] });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.errors.map((e) => e.code)).toEqual(['unknown-tool-reference', 'unknown-tool-reference']);
  });

  it('A1: several init rules are a union at the start of a run', () => {
    expect(session([Init('start'), Init('prep')], ['start', 'prep', 'other']).turn()).toEqual(['prep', 'start']);
  });

  it('A2: right after the parent of a child rule only its children are visible', () => {
    const s = session([Init('start'), Child('start', ['next', 'helper'])], ['start', 'next', 'helper']);
    s.run('start');
    expect(s.turn()).toEqual(['helper', 'next']);
  });

  it('A3: an empty allowed set ends the run with no_tool_allowed instead of widening', () => {
    const catalog = ['start'];
    const s = new RuleSession(lettaRules([Init('start'), Max('start', 1)], catalog), catalog).user();
    s.run('start');
    s.turn();
    expect(narrow(s.rules, s.state, catalog)).toMatchObject({ visible: [], ended: 'no_tool_allowed' });
  });

  it('A4: a chain of child rules offers exactly one tool per step and the terminal tool ends the run', () => {
    const rules = [Init('start'), Child('start', ['next']), Child('next', ['final']), Term('final')];
    const s = session(rules, ['start', 'next', 'final']);
    expect(s.turn()).toEqual(['start']);
    s.run('start');
    expect(s.turn()).toEqual(['next']);
    s.run('next');
    expect(s.turn()).toEqual(['final']);
    s.run('final');
    expect(s.state.ended).toBe('terminal');
    expect(s.codes('start')).toEqual(['run_ended']);
  });

  it('A5: only the terminal tool ends the run', () => {
    const s = session([Init('start'), Term('end')], ['start', 'end']);
    s.run('start');
    expect(s.state.ended).toBeNull();
    s.run('end');
    expect(s.state.ended).toBe('terminal');
  });

  it('A6: only the tool with a requires_approval rule needs approval', () => {
    const catalog = ['start', 'end', 'ra'];
    const rules = lettaRules([Init('start'), Term('end'), Appr('ra')], catalog);
    const s = new RuleSession(rules, catalog).user().run('start');
    const approval = (tool: string) => validate(rules, s.state, { tool, args: {} }, catalog).requiresApproval;
    expect([approval('end'), approval('ra')]).toEqual([false, true]);
  });

  it('A7: child rules that form a cycle load (they are not prerequisites)', () => {
    const rules = [
      Child('start', ['next']),
      Child('next', ['helper']),
      Child('helper', ['start']),
      Child('final', ['end']),
      Term('end'),
      Init('start'),
      Cond('helper', { true: 'start', false: 'final' }, { default_child: 'final' }),
    ];
    expect(() => lettaRules(rules, ['start', 'next', 'helper', 'final', 'end'])).not.toThrow();
  });
});

describe('Letta B: conditional rules', () => {
  const rules = [Init('start'), Cond('start', { true: 'end', false: 'start' }), Term('end')];
  const catalog = ['start', 'end'];

  it('B1: at the start of a run only the init tool is visible', () => {
    expect(session(rules, catalog).turn()).toEqual(['start']);
  });

  it('B2: an output of "true" in the message field selects the mapped child', () => {
    const s = session(rules, catalog);
    s.call('start', { result: { message: 'true' } });
    expect(s.turn()).toEqual(['end']);
  });

  it('B3: an output of "false" selects the other child', () => {
    const s = session(rules, catalog);
    s.call('start', { result: { message: 'false' } });
    expect(s.turn()).toEqual(['start']);
  });

  it('B4: a conditional rule with an empty mapping is refused', () => {
    const imported = importLetta({ file: 'letta.json', value: [Cond('start', {}, { default_child: 'end' })] });
    expect(imported.ok).toBe(false);
    if (!imported.ok)
      expect(imported.errors[0]?.problem).toBe('Conditional tool rule must have at least one child tool.');
  });

  it('B5: a strict conditional and a child rule on the same tool intersect', () => {
    const s = session(
      [Child('decider', ['c1', 'c2']), Cond('decider', { true: 'c2', false: 'c1' }, { require_output_mapping: true })],
      ['decider', 'c1', 'c2'],
    );
    s.call('decider', { result: { message: 'true' } });
    expect(s.turn()).toEqual(['c2']);
  });
});

describe('Letta C: max count per step (per run)', () => {
  it('C1: an init tool limited to 2 stays visible until used twice', () => {
    const catalog = ['start'];
    const s = session([Init('start'), Max('start', 2)], catalog);
    expect(s.turn()).toEqual(['start']);
    s.run('start');
    expect(s.turn()).toEqual(['start']);
    s.run('start');
    expect(s.turn()).toEqual([]);
  });

  it('C2: a limit of 3 allows exactly three calls', () => {
    const s = session([Max('start', 3)], ['start']);
    const seen = [s.turn()];
    for (let i = 0; i < 3; i++) {
      s.run('start');
      seen.push(s.visible());
    }
    expect(seen).toEqual([['start'], ['start'], ['start'], []]);
  });

  it('C3: an exhausted tool is hidden while others stay visible', () => {
    const s = session([Max('start', 2), Child('next', ['helper'])], ['start', 'next', 'helper']);
    s.run('start', 'start');
    expect(s.turn()).toEqual(['helper', 'next']);
  });

  it('C4: a new run resets the count', () => {
    const s = session([Max('start', 2)], ['start']);
    s.run('start', 'start');
    expect(s.visible()).toEqual([]);
    s.user('again');
    expect(s.turn()).toEqual(['start']);
  });
});

describe('Letta D: required before exit', () => {
  it('D1: with no rules a text answer ends the run', () => {
    expect(session([], ['a']).end()).toEqual({ endsRun: true, codes: [] });
  });

  it('D2: the answer is refused until the required tool completed', () => {
    const s = session([Req('save')], ['save']);
    expect(s.end()).toEqual({ endsRun: false, codes: ['required_before_exit'] });
    s.run('save');
    expect(s.end().endsRun).toBe(true);
  });

  it('D3: every required tool must complete', () => {
    const s = session([Req('r1'), Req('r2')], ['r1', 'r2']);
    expect(s.end().codes).toEqual(['required_before_exit', 'required_before_exit']);
    s.run('r1');
    expect(s.end().codes).toEqual(['required_before_exit']);
    s.run('r2');
    expect(s.end().endsRun).toBe(true);
  });

  it('D4: other calls do not satisfy the requirement', () => {
    const s = session([Req('save')], ['start', 'helper', 'save']);
    s.run('start', 'helper');
    expect(s.end().endsRun).toBe(false);
    s.run('save');
    expect(s.end().endsRun).toBe(true);
  });

  it('D5: a new run requires the tool again', () => {
    const s = session([Req('save')], ['save']);
    s.run('save');
    expect(s.end().endsRun).toBe(true);
    s.user('next request');
    expect(s.end()).toEqual({ endsRun: false, codes: ['required_before_exit'] });
  });

  it('a failed call of the required tool does not satisfy it', () => {
    const s = session([Req('save')], ['save']);
    s.call('save', { error: true });
    expect(s.end().endsRun).toBe(false);
  });
});

describe('Letta E: what keeps the run going (a text answer is refused)', () => {
  const refuses = (rules: Record<string, unknown>[], catalog: string[], calls: [string, unknown?][]) => {
    const s = session(rules, catalog);
    for (const [tool, result] of calls) s.call(tool, { result });
    return s.end();
  };

  it('E1: nothing holds with no rules', () => {
    expect(refuses([], ['a'], []).endsRun).toBe(true);
  });

  it('E4: a pending child rule refuses the answer with child_required', () => {
    expect(refuses([Child('start', ['next', 'helper'])], ['start', 'next', 'helper'], [['start']]).codes).toEqual([
      'child_required',
    ]);
  });

  it('E5: the child rule holds only right after its tool', () => {
    expect(refuses([Child('start', ['next', 'helper'])], ['start', 'next', 'helper'], [['helper']]).endsRun).toBe(true);
  });

  it('E6: a conditional choice refuses the answer until its child is called', () => {
    const rules = [Cond('start', { true: 'end', false: 'next' })];
    expect(refuses(rules, ['start', 'end', 'next'], [['start', 'true']]).codes).toEqual(['child_required']);
  });

  it('E8-E12: max count, terminal, required (once done) and approval rules do not hold the run', () => {
    expect(refuses([Max('start', 2)], ['start'], [['start']]).endsRun).toBe(true);
    expect(refuses([Req('save')], ['save'], [['save']]).endsRun).toBe(true);
    expect(refuses([Appr('x')], ['x'], [['x']]).endsRun).toBe(true);
  });

  it('E10: a continue tool refuses the answer right after it completes', () => {
    expect(refuses([Cont('next')], ['next', 'other'], [['next']]).codes).toEqual(['continue_required']);
    expect(refuses([Cont('next')], ['next', 'other'], [['next'], ['other']]).endsRun).toBe(true);
  });

  it('E13: the chain holds while child rules are pending and releases after the last', () => {
    const s = session(
      [Child('start', ['next']), Child('next', ['final']), Parent('prep', ['helper'])],
      ['start', 'next', 'final', 'prep', 'helper'],
    );
    s.run('start');
    expect(s.end().endsRun).toBe(false);
    s.run('next');
    expect(s.end().endsRun).toBe(false);
    s.run('final');
    expect(s.end().endsRun).toBe(true);
  });
});

describe('Letta F: duplicates', () => {
  const warnings = (rules: Record<string, unknown>[]) => {
    const imported = importLetta({ file: 'letta.json', value: rules });
    if (!imported.ok) throw new Error('import failed');
    const result = compileRuleSet({ documents: [imported.document] });
    return result.warnings.filter((w) => w.code === 'duplicate-rule').map((w) => w.path);
  };

  it('F16: repeated rules are reported as duplicates, child order ignored, different limits kept', () => {
    const rules = [
      Init('start'),
      Init('start'),
      Init('different_start'),
      Child('parent', ['a', 'b']),
      Child('parent', ['b', 'a']),
      Child('parent', ['a', 'b', 'c']),
      Max('limited', 2),
      Max('limited', 2),
      Max('limited', 3),
    ];
    expect(warnings(rules)).toEqual(['[1]', '[4]', '[7]']);
  });

  it('F10: rules that differ only in prompt_template are duplicates', () => {
    expect(
      warnings([
        { ...Term('x'), prompt_template: 'A' },
        { ...Term('x'), prompt_template: 'B' },
      ]),
    ).toEqual(['[1]']);
  });

  it('F9: rules of different kinds on one tool are never duplicates', () => {
    expect(warnings([Init('same'), Term('same'), Cont('same'), Req('same')])).toEqual([]);
  });
});

describe('Letta G/H: prefilled arguments and rule construction', () => {
  it('G1: prefilled init arguments load with a warning that they are not applied', () => {
    const imported = importLetta({ file: 'letta.json', value: [{ ...Init('alpha'), args: { x: 1 } }] });
    expect(imported.ok).toBe(true);
    expect(imported.warnings.map((w) => w.code)).toEqual(['prefilled-args-ignored']);
  });

  it('H1: an argument node for a tool that is not a child is refused', () => {
    const imported = importLetta({
      file: 'letta.json',
      value: [{ ...Child('parent', ['known_child']), child_arg_nodes: [{ name: 'unknown_child', args: {} }] }],
    });
    expect(imported.ok).toBe(false);
    if (!imported.ok) expect(imported.errors[0]?.problem).toContain('not in children');
  });

  it('H2: argument node args that are not an object are refused', () => {
    const imported = importLetta({
      file: 'letta.json',
      value: [{ ...Child('p', ['c1']), child_arg_nodes: [{ name: 'c1', args: 'nope' }] }],
    });
    expect(imported.ok).toBe(false);
    if (!imported.ok) expect(imported.errors[0]?.problem).toContain('dict');
  });

  it('H3: a valid argument node loads', () => {
    const imported = importLetta({
      file: 'letta.json',
      value: [{ ...Child('p', ['c1', 'c2']), child_arg_nodes: [{ name: 'c2', args: { k: 1 } }] }],
    });
    expect(imported.ok).toBe(true);
  });
});

describe('Letta I: end-to-end behaviour', () => {
  it('I1: the secret-word chain is followed in order and ends at send_message', () => {
    const catalog = ['first', 'second', 'third', 'fourth', 'send_message'];
    const rules = [
      Init('first'),
      Child('first', ['second']),
      Child('second', ['third']),
      Child('third', ['fourth']),
      Child('fourth', ['send_message']),
      Term('send_message'),
    ];
    const s = session(rules, catalog);
    const offered: string[][] = [];
    for (const tool of catalog) {
      offered.push(s.turn());
      s.run(tool);
    }
    expect(offered).toEqual([['first'], ['second'], ['third'], ['fourth'], ['send_message']]);
    expect(s.state.ended).toBe('terminal');
  });

  it('I12: a continue tool keeps the run going until the terminal tool', () => {
    const s = session([Cont('send_message'), Term('core_memory_append')], ['send_message', 'core_memory_append']);
    s.run('send_message');
    expect(s.end().codes).toEqual(['continue_required']);
    s.run('core_memory_append');
    expect(s.state.ended).toBe('terminal');
  });

  it('I13: a terminal init tool does not end the run while a required tool is missing', () => {
    const s = session([Init('send_message'), Req('save_data'), Term('send_message')], ['send_message', 'save_data']);
    expect(s.turn()).toEqual(['send_message']);
    s.run('send_message');
    expect(s.state.ended).toBeNull();
    expect(s.end().codes).toEqual(['required_before_exit']);
    s.run('save_data', 'send_message');
    expect(s.state.ended).toBe('terminal');
  });

  it('I14: every required tool is needed before the terminal tool ends the run', () => {
    const catalog = ['send_message', 'save_data', 'cleanup_temp_files'];
    const s = session(
      [Init('send_message'), Req('save_data'), Req('cleanup_temp_files'), Term('send_message')],
      catalog,
    );
    s.run('send_message', 'save_data', 'send_message');
    expect(s.state.ended).toBeNull();
    s.run('cleanup_temp_files', 'send_message');
    expect(s.state.ended).toBe('terminal');
  });

  it('I15: a child rule, a required tool and a terminal tool combine', () => {
    const s = session(
      [Init('first'), Child('first', ['send_message']), Req('save_data'), Term('send_message')],
      ['first', 'send_message', 'save_data'],
    );
    s.run('first');
    expect(s.turn()).toEqual(['send_message']);
    s.run('send_message', 'save_data', 'send_message');
    expect(s.state.ended).toBe('terminal');
  });

  it('I16: save once, message once: the run ends at the terminal tool', () => {
    const s = session([Init('save_data'), Req('save_data'), Term('send_message')], ['save_data', 'send_message']);
    s.run('save_data', 'send_message');
    expect(s.state.ended).toBe('terminal');
  });

  it('any rule makes consecutive calls depend on each other where it matters', () => {
    const rules = lettaRules([Init('start'), Child('start', ['next'])], ['start', 'next', 'free']);
    expect(dependsOn(rules, { tool: 'start' }, { tool: 'free' })).toBe(true);
  });
});
