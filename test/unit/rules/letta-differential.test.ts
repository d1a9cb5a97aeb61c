import { describe, expect, it } from 'vitest';
import { compileRuleSet, formatDiagnostic, importLetta, narrow } from '../../../src/rules/index';
import { RuleSession, lettaRules } from './support/rule-session';

const Cond = (tool: string, mapping: Record<string, string>, extra: Record<string, unknown> = {}) => ({
  type: 'conditional',
  tool_name: tool,
  child_output_mapping: mapping,
  ...extra,
});
const Parent = (tool: string, children: string[]) => ({ type: 'parent_last_tool', tool_name: tool, children });

function session(rules: Record<string, unknown>[], catalog: string[]): RuleSession {
  return new RuleSession(lettaRules(rules, catalog), catalog).user('go');
}

describe('Letta differential: conditional outputs are matched as Letta matches them', () => {
  it.each([' true', 'true ', '\ttrue\n'])(
    'a boolean key does not match the output %j with blanks around it',
    (output) => {
      const s = session(
        [Cond('check', { true: 'yes', false: 'no' }, { default_child: 'other' })],
        ['check', 'yes', 'no', 'other'],
      );
      s.call('check', { result: { message: output } });
      expect(s.turn()).toEqual(['other']);
    },
  );

  it('a boolean key still matches its text in any case', () => {
    const s = session([Cond('check', { true: 'yes', false: 'no' })], ['check', 'yes', 'no']);
    s.call('check', { result: { message: 'TRUE' } });
    expect(s.turn()).toEqual(['yes']);
  });
});

describe('Letta differential: a text answer is refused where Letta forces a tool call', () => {
  it('after a conditional whose output matched no key and that has no default child', () => {
    const s = session([Cond('check', { true: 'yes' })], ['check', 'yes', 'other']);
    s.call('check', { result: { message: 'maybe' } });
    expect(s.turn()).toEqual(['check', 'other', 'yes']);
    expect(s.end()).toEqual({ endsRun: false, codes: ['child_required'] });
    s.run('other');
    expect(s.end().endsRun).toBe(true);
  });

  it('right after the parent of a parent rule', () => {
    const s = session([Parent('open', ['edit'])], ['open', 'edit', 'other']);
    s.run('open');
    expect(s.end()).toEqual({ endsRun: false, codes: ['parent_required'] });
    s.run('edit');
    expect(s.end().endsRun).toBe(true);
  });
});

describe('Letta differential: a text answer is accepted where Letta forces a tool call', () => {
  // Letta's strict conditional leaves no tool allowed after an output that matches no key, and its
  // conditional rules still force a tool call next. toolrail's strict decision allows nothing and
  // names no child, so nothing is pending: a text answer ends the run.
  const strict = [Cond('check', { true: 'yes' }, { require_output_mapping: true })];
  const catalog = ['check', 'yes', 'other'];

  it('in strict mode, after a conditional whose output matched no key and that has no default child', () => {
    const s = session(strict, catalog);
    s.call('check', { result: { message: 'maybe' } });
    // By default the run ends before the model is asked: nothing may be called.
    expect(narrow(s.rules, s.state, catalog)).toMatchObject({ visible: [], ended: 'no_tool_allowed' });
    expect(s.end()).toEqual({ endsRun: true, codes: [] });
  });

  it('also with onEmpty: allow-all, where every tool is offered instead', () => {
    const imported = importLetta({ file: 'letta.json', value: strict });
    if (!imported.ok) throw new Error('the rules do not import');
    const compiled = compileRuleSet({ documents: [imported.document], options: { onEmpty: 'allow-all' } });
    if (!compiled.ok) throw new Error('the rules do not compile');
    const s = new RuleSession(compiled.rules, catalog).user('go');
    s.call('check', { result: { message: 'maybe' } });
    expect(s.turn()).toEqual(['check', 'other', 'yes']);
    expect(s.end()).toEqual({ endsRun: true, codes: [] });
  });
});

describe('Letta differential: rule values Letta accepts', () => {
  it('reads a string of an integer as max_count_limit, as pydantic does', () => {
    const s = session([{ type: 'max_count_per_step', tool_name: 'a', max_count_limit: '1' }], ['a', 'b']);
    s.run('a');
    expect(s.turn()).toEqual(['b']);
  });

  it.each(['true', 'True', 'yes', 1])('reads require_output_mapping %j as true, as pydantic does', (flag) => {
    const s = session(
      [Cond('check', { ok: 'yes' }, { require_output_mapping: flag, default_child: 'no' })],
      ['check', 'yes', 'no'],
    );
    s.call('check', { result: { message: 'other' } });
    expect(s.visible()).toEqual([]);
  });

  it.each([
    [{ type: 'constrain_child_tools', tool_name: 'a', children: [] }, '[0].children', 'list the tools'],
    [{ type: 'parent_last_tool', tool_name: 'a', children: [] }, '[0].children', 'list the tools'],
    [{ type: 'max_count_per_step', tool_name: 'a', max_count_limit: -1 }, '[0].max_count_limit', 'give a limit of 1'],
    [{ type: 'exit_loop', tool_name: '' }, '[0].tool_name', 'write the name'],
  ])('refuses %j with one line naming the file, the place and the fix', (rule, place, fix) => {
    const imported = importLetta({ file: 'letta.json', value: [rule] });
    expect(imported.ok).toBe(false);
    if (imported.ok) return;
    expect(imported.errors).toHaveLength(1);
    const line = formatDiagnostic(imported.errors[0]!);
    expect(line.startsWith(`letta.json:${place}: `)).toBe(true);
    expect(line).toContain(`— ${fix}`);
  });
});
