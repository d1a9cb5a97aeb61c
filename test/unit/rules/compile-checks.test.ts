import { describe, expect, it } from 'vitest';
import { compileRuleSet, formatDiagnostic } from '../../../src/rules/index';
import { compileErrors, compileRules, compileWarnings, documentOf } from './support/rule-session';

const codes = (diagnostics: { code: string }[]) => diagnostics.map((d) => d.code);

describe('compileRuleSet: errors', () => {
  it('refuses a prerequisite cycle through requires and preconditions, naming it once', () => {
    const errors = compileErrors([
      { kind: 'requires', tool: 'a', after: ['b'] },
      { kind: 'precondition', tool: 'b', requires_prior_tool: 'c' },
      { kind: 'requires', tool: 'c', after: ['a'] },
      { kind: 'requires', tool: 'd', after: ['a'] },
    ]);
    expect(codes(errors)).toEqual(['prerequisite-cycle']);
    expect(errors[0]?.problem).toContain('a requires b requires c requires a');
  });

  it('refuses an any-gate whose every alternative waits on the gated tool', () => {
    expect(
      codes(
        compileErrors([
          { kind: 'requires', tool: 'a', after: ['b', 'c'], mode: 'any' },
          { kind: 'requires', tool: 'b', after: ['a'] },
          { kind: 'requires', tool: 'c', after: ['a'] },
        ]),
      ),
    ).toEqual(['prerequisite-cycle']);
  });

  it('accepts an any-gate with one reachable alternative', () => {
    expect(() =>
      compileRules([
        { kind: 'requires', tool: 'a', after: ['b', 'c'], mode: 'any' },
        { kind: 'requires', tool: 'b', after: ['a'] },
      ]),
    ).not.toThrow();
  });

  it('refuses a self-prerequisite', () => {
    expect(codes(compileErrors([{ kind: 'requires', tool: 'a', after: ['a'] }]))).toEqual(['prerequisite-cycle']);
  });

  it('refuses tools that are not in the catalog, naming the field', () => {
    const errors = compileErrors([{ kind: 'child', tool: 'a', children: ['b', 'typo'] }], ['a', 'b']);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'unknown-tool-reference', file: 'rules.yaml', path: 'rules[0]' });
    expect(errors[0]?.problem).toBe('child rule on a: children names "typo", which is not in the catalog');
  });

  it('refuses an init tool that another rule blocks at the start of a run', () => {
    const cases = [
      { kind: 'requires', tool: 'start', after: ['login'] },
      { kind: 'max_count', tool: 'start', limit: 0 },
      { kind: 'parent', tool: 'p', children: ['start'] },
      { kind: 'sequence', positions: ['other', 'start'] },
      { kind: 'precondition', tool: 'start', requires_step_count: { gte: 1 } },
      { kind: 'default', policy: 'block', known: ['other'] },
    ];
    for (const blocker of cases) {
      expect(codes(compileErrors([{ kind: 'init', tool: 'start' }, blocker]))).toContain('init-blocked');
    }
  });

  it('refuses a sequence position that another rule makes impossible', () => {
    expect(
      codes(
        compileErrors([
          { kind: 'sequence', positions: ['a', 'b'] },
          { kind: 'max_count', tool: 'b', limit: 0 },
        ]),
      ),
    ).toEqual(['impossible-sequence']);
    expect(
      codes(
        compileErrors([
          { kind: 'sequence', positions: ['a', 'b'] },
          { kind: 'forbids_after', tool: 'a', forbids: ['b'] },
        ]),
      ),
    ).toEqual(['impossible-sequence']);
    expect(
      codes(
        compileErrors([
          { kind: 'sequence', positions: ['a', 'b'] },
          { kind: 'child', tool: 'a', children: ['c'] },
        ]),
      ),
    ).toEqual(['impossible-sequence']);
  });

  it('accepts a sequence position with one possible alternative', () => {
    expect(() =>
      compileRules([
        { kind: 'sequence', positions: ['a', ['b', 'c']] },
        { kind: 'max_count', tool: 'b', limit: 0 },
      ]),
    ).not.toThrow();
  });

  it('refuses child lists with nothing in common or nothing callable', () => {
    expect(
      codes(
        compileErrors([
          { kind: 'child', tool: 'p', children: ['a', 'b'] },
          { kind: 'child', tool: 'p', children: ['c'] },
        ]),
      ),
    ).toEqual(['impossible-children']);
    expect(
      codes(
        compileErrors([
          { kind: 'child', tool: 'p', children: ['a'] },
          { kind: 'forbids_after', tool: 'p', forbids: ['a'] },
        ]),
      ),
    ).toEqual(['impossible-children']);
  });

  it('refuses a required_before_exit tool that can never be called', () => {
    expect(
      codes(
        compileErrors([
          { kind: 'required_before_exit', tool: 'save' },
          { kind: 'max_count', tool: 'save', limit: 0, scope: 'session' },
        ]),
      ),
    ).toEqual(['required-never-visible']);
  });

  it('refuses invalid JSONPaths, regexes and fields that need each other', () => {
    expect(
      codes(
        compileErrors([
          { kind: 'precondition', tool: 't', requires_prior_tool: 'p', with_output: [{ path: '$..x', exists: true }] },
        ]),
      ),
    ).toEqual(['invalid-json-path']);
    expect(
      codes(compileErrors([{ kind: 'step', name: 's', conditions: [{ type: 'message_regex', value: '(' }] }])),
    ).toEqual(['invalid-regex']);
    expect(
      codes(compileErrors([{ kind: 'precondition', tool: 't', resource: { bind_from: 'arguments', path: '$.id' } }])),
    ).toEqual(['precondition-without-prior-tool']);
  });

  it('refuses rules that do not match the unified schema, with the field path', () => {
    const result = compileRuleSet({ documents: [documentOf([{ kind: 'max_count', tool: 'a', limit: -1 }])] });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[0]).toMatchObject({ code: 'invalid-rule', path: 'rules[0].limit' });
  });

  it('formats a diagnostic as one line FILE:PLACE: problem — fix', () => {
    const [error] = compileErrors([{ kind: 'requires', tool: 'a', after: ['a'] }]);
    if (!error) throw new Error('expected an error');
    const line = formatDiagnostic(error);
    expect(line).toMatch(
      /^rules\.yaml:rules\[0\]: prerequisite cycle: a requires a, .* — remove one of these prerequisites/,
    );
    expect(line).not.toContain('\n');
  });
});

describe('compileRuleSet: warnings', () => {
  it('warns about rules that can never fire after a terminal tool', () => {
    expect(
      codes(
        compileWarnings([
          { kind: 'terminal', tool: 'end' },
          { kind: 'child', tool: 'end', children: ['a'] },
        ]),
      ),
    ).toEqual(['after-terminal']);
  });

  it('warns about a step that can never become active', () => {
    expect(
      codes(
        compileWarnings([
          { kind: 'step', name: 'main', default: true },
          { kind: 'step', name: 'orphan', allowed: ['a'] },
        ]),
      ),
    ).toEqual(['step-never-active']);
  });

  it('warns about repeated mapping keys and a default child that strict mode never uses', () => {
    expect(
      codes(
        compileWarnings([
          {
            kind: 'conditional',
            tool: 'c',
            mapping: [
              { when: 'yes', child: 'a' },
              { when: 'YES', child: 'b' },
            ],
            default_child: 'a',
            strict: true,
          },
        ]),
      ),
    ).toEqual(['duplicate-mapping-key', 'default-child-unused']);
  });

  it('warns about a glob that matches no catalog tool', () => {
    expect(
      codes(compileWarnings([{ kind: 'step', name: 's', default: true, allowed: ['*zzz*', 'a'] }], ['a'])),
    ).toEqual(['pattern-matches-nothing']);
  });

  it('has no warnings for a clean rule set', () => {
    expect(compileWarnings([{ kind: 'requires', tool: 'b', after: ['a'] }], ['a', 'b'])).toEqual([]);
  });
});

describe('compileRuleSet: output', () => {
  it('is plain JSON that survives a round trip unchanged', () => {
    const rules = compileRules([
      { kind: 'precondition', tool: 't', requires_prior_tool: 'p', with_output: [{ path: '$.ok', equals: null }] },
      { kind: 'step', name: 's', default: true, sequence: [['a', 'b'], 'c'] },
    ]);
    expect(JSON.parse(JSON.stringify(rules))).toEqual(rules);
  });

  it('merges settings: the smallest turn limit, allow-all only when every file that says asks for it', () => {
    const result = compileRuleSet({
      documents: [
        documentOf([], 'a.yaml', { maxTurnsPerRun: 30, onEmpty: 'allow-all' }),
        documentOf([], 'b.yaml', { maxTurnsPerRun: 10 }),
      ],
    });
    expect(result.ok && result.rules.settings).toEqual({ onEmpty: 'allow-all', maxTurnsPerRun: 10 });
    const strict = compileRuleSet({
      documents: [documentOf([], 'a.yaml', { onEmpty: 'allow-all' }), documentOf([], 'b.yaml', { onEmpty: 'end-run' })],
    });
    expect(strict.ok && strict.rules.settings.onEmpty).toBe('end-run');
  });

  it('uses 50 turns per run and end-run by default', () => {
    expect(compileRules([]).settings).toEqual({ onEmpty: 'end-run', maxTurnsPerRun: 50 });
  });
});
