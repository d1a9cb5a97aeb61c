import { describe, expect, it } from 'vitest';
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
