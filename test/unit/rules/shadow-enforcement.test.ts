import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CompiledRuleSet, Reason, RuleState, Trace } from '../../../src/rules/index';
import {
  beginTurn,
  buildCompiledRuleSetSchema,
  checkEnd,
  compileRuleSet,
  describeRuleState,
  endRun,
  importToolrail,
  initialRuleState,
  narrow,
  record,
  simulateTrace,
  startRun,
  validate,
} from '../../../src/rules/index';
import { loadRuleSet } from '../../../src/rules-files/index';
import { enforcedRuleArbitrary, fuzzTools } from '../../fuzz/rule-arbitraries';
import { fixture } from './support/fixtures';
import type { TestRule } from './support/rule-session';
import { RuleSession, compileRules, documentOf } from './support/rule-session';

const shadow = <Rule extends TestRule>(rule: Rule): Rule => ({ ...rule, enforcement: 'shadow' });

/** A reason without its rule reference, to compare the reasons of a rule and of its shadow copy. */
const said = (reasons: readonly Reason[] | undefined) =>
  (reasons ?? []).map(({ code, message, callFirst }) => ({ code, message, callFirst }));

describe('shadow rules (enforcement: shadow)', () => {
  it('hide nothing: narrowing reports what they would hide, with the reasons an enforced copy gives', () => {
    const rule = { kind: 'requires', tool: 'issue_refund', after: ['check_eligibility'] };
    const catalog = ['check_eligibility', 'issue_refund'];
    const enforced = new RuleSession(compileRules([rule]), catalog).user();
    const reported = new RuleSession(compileRules([shadow(rule)]), catalog).user();
    const narrowed = narrow(reported.rules, reported.state, catalog);
    expect(narrowed.visible).toEqual(catalog);
    expect(narrowed.hidden).toEqual([]);
    expect(narrowed.shadowHidden?.map(({ tool }) => tool)).toEqual(['issue_refund']);
    expect(said(narrowed.shadowHidden?.[0]?.reasons)).toEqual(said(enforced.hiddenReasons('issue_refund')));
    expect(narrow(enforced.rules, enforced.state, catalog).shadowHidden).toBeUndefined();
  });

  it('refuse nothing: validation allows the call with the shadow reasons, and recording counts it', () => {
    const rules = compileRules([shadow({ kind: 'max_count', tool: 'search', limit: 1 })]);
    const session = new RuleSession(rules, ['search']).user().run('search');
    const verdict = validate(rules, session.state, { tool: 'search', args: {} }, ['search']);
    expect(verdict).toMatchObject({ verdict: 'allowed', reasons: [], requiresApproval: false });
    expect(verdict.shadowRefused?.map((reason) => reason.code)).toEqual(['max_count_reached']);
    session.run('search');
    expect(describeRuleState(rules, session.state, ['search']).counts).toEqual([
      expect.objectContaining({ tool: 'search', count: 2, limit: 1 }),
    ]);
  });

  it("shadow every rule of a document that says so, and a rule's own enforcement wins", () => {
    const rules = [
      { kind: 'requires', tool: 'b', after: ['a'] },
      { kind: 'requires', tool: 'c', after: ['a'], enforcement: 'enforce' },
    ];
    const result = compileRuleSet({ documents: [documentOf(rules, 'rules.yaml', { enforcement: 'shadow' })] });
    if (!result.ok) throw new Error('expected the rules to compile');
    expect(result.rules.rules.map((rule) => rule.enforcement)).toEqual(['shadow', undefined]);
    const session = new RuleSession(result.rules, ['a', 'b', 'c']).user();
    expect(session.codes('b')).toEqual([]);
    expect(session.codes('c')).toEqual(['prerequisite_not_met']);
    const overridden = compileRuleSet({ documents: [documentOf(rules)], options: { enforcement: 'shadow' } });
    expect(overridden.ok && overridden.rules.rules.map((rule) => rule.enforcement)).toEqual(['shadow', undefined]);
  });

  it("leave an enforced rule's reasons and callFirst as they are without them", () => {
    const enforced = [{ kind: 'requires', tool: 'deploy', after: ['build'] }];
    const extra = [shadow({ kind: 'requires', tool: 'build', after: ['lint'] })];
    const catalog = ['build', 'deploy', 'lint'];
    const alone = new RuleSession(compileRules(enforced), catalog).user();
    const beside = new RuleSession(compileRules([...enforced, ...extra]), catalog).user();
    expect(beside.hiddenReasons('deploy')).toEqual(alone.hiddenReasons('deploy'));
    expect(beside.hiddenReasons('deploy')[0]?.callFirst).toEqual(['build']);
    const reported = narrow(beside.rules, beside.state, catalog).shadowHidden;
    expect(reported?.find(({ tool }) => tool === 'build')?.reasons[0]?.callFirst).toEqual(['lint']);
  });

  it('let a text answer end the run, with the reasons they would have refused it with', () => {
    const rules = compileRules([shadow({ kind: 'required_before_exit', tool: 'save' })]);
    const session = new RuleSession(rules, ['save', 'search']).user().run('search');
    const end = checkEnd(rules, session.state);
    expect(end).toMatchObject({ endsRun: true, reasons: [] });
    expect(end.shadowRefused?.map((reason) => reason.code)).toEqual(['required_before_exit']);
  });

  it('do not end a run with a shadow terminal tool; later calls of the run are reported as ended', () => {
    const rules = compileRules([shadow({ kind: 'terminal', tool: 'finish' })]);
    const catalog = ['finish', 'search'];
    const session = new RuleSession(rules, catalog).user().run('finish');
    expect(session.state.ended).toBeNull();
    const verdict = validate(rules, session.state, { tool: 'search', args: {} }, catalog);
    expect(verdict.verdict).toBe('allowed');
    expect(verdict.shadowRefused?.map((reason) => reason.code)).toEqual(['run_ended']);
    expect(narrow(rules, session.state, catalog).shadowEnded).toBe('no_tool_allowed');
    session.user('next');
    expect(narrow(rules, session.state, catalog).shadowHidden).toBeUndefined();
  });

  it('ask no human for a shadow requires_approval rule, and say one would have been asked', () => {
    const rules = compileRules([shadow({ kind: 'requires_approval', tool: 'pay' })]);
    const verdict = validate(rules, initialRuleState(rules), { tool: 'pay', args: {} }, ['pay']);
    expect(verdict).toEqual({ verdict: 'allowed', reasons: [], requiresApproval: false, shadowRequiresApproval: true });
  });

  it('never take the place of an enforced forbids_after that fires after them', () => {
    const rules = compileRules([
      shadow({ kind: 'forbids_after', tool: 'a', forbids: ['c'] }),
      { kind: 'forbids_after', tool: 'b', forbids: ['c'] },
    ]);
    const session = new RuleSession(rules, ['a', 'b', 'c']).user().run('a');
    expect(session.codes('c', {})).toEqual([]);
    session.run('b');
    expect(session.codes('c')).toEqual(['forbidden_after']);
  });

  it('do not cover a tool for an enforced default: block (only enforced rules do)', () => {
    const rules = compileRules([
      { kind: 'default', policy: 'block' },
      shadow({ kind: 'max_count', tool: 'a', limit: 5 }),
    ]);
    expect(new RuleSession(rules, ['a']).user().codes('a')).toEqual(['unruled_tool_blocked']);
    const reported = compileRules([
      shadow({ kind: 'default', policy: 'block' }),
      { kind: 'max_count', tool: 'a', limit: 5 },
    ]);
    const state = startRun(reported, initialRuleState(reported), { userMessage: '' });
    const unruled = validate(reported, state, { tool: 'b', args: {} }, ['a', 'b']);
    expect(unruled.verdict).toBe('allowed');
    expect(unruled.shadowRefused?.map((reason) => reason.code)).toEqual(['unruled_tool_blocked']);
    expect(validate(reported, state, { tool: 'a', args: {} }, ['a', 'b']).shadowRefused).toBeUndefined();
  });

  it('compile to rules with enforcement: shadow (and only those), which the session input schema accepts', () => {
    const rules = compileRules([{ kind: 'init', tool: 'a' }, shadow({ kind: 'terminal', tool: 'a' })]);
    expect(rules.rules.map((rule) => rule.enforcement)).toEqual([undefined, 'shadow']);
    expect(buildCompiledRuleSetSchema().safeParse(rules).success).toBe(true);
  });

  it('are read from the unified format, at the top and on a rule, and other values are refused', () => {
    const imported = importToolrail({
      file: 'rules.yaml',
      value: { toolrail: 1, enforcement: 'shadow', rules: [{ kind: 'init', tool: 'a', enforcement: 'enforce' }] },
    });
    expect(imported.ok && imported.document.settings).toEqual({ enforcement: 'shadow' });
    expect(imported.ok && imported.document.rules[0]?.enforcement).toBe('enforce');
    const wrong = importToolrail({ file: 'rules.yaml', value: { enforcement: 'maybe', rules: [] } });
    expect(wrong.ok ? [] : wrong.errors.map((error) => `${error.code} ${error.path}`)).toEqual([
      'invalid-setting enforcement',
    ]);
    const onRule = importToolrail({
      file: 'rules.yaml',
      value: { rules: [{ kind: 'init', tool: 'a', enforcement: 'no' }] },
    });
    expect(onRule.ok ? [] : onRule.errors.map((error) => error.path)).toEqual(['rules[0].enforcement']);
  });

  it('shadow a native format loaded with the rule set setting', async () => {
    const loaded = await loadRuleSet({
      paths: [fixture('letta-diagram.letta.json')],
      settings: { enforcement: 'shadow' },
    });
    expect(loaded.ok && loaded.rules.rules.every((rule) => rule.enforcement === 'shadow')).toBe(true);
  });
});

describe('toolrail simulate with shadow rules', () => {
  it('shows shadow verdicts in their own fields and leaves the rest of each line as enforcing rules make it', async () => {
    const loaded = await loadRuleSet({
      paths: [fixture('shadow.toolrail.yaml')],
      catalog: ['check_eligibility', 'issue_refund'],
    });
    if (!loaded.ok) throw new Error('expected the rules to load');
    const trace: Trace = {
      tools: ['check_eligibility', 'issue_refund'],
      events: [
        { user: 'Refund A1 and A2' },
        { calls: [{ tool: 'check_eligibility', args: {}, result: { eligible: true } }] },
        {
          calls: [
            { tool: 'issue_refund', args: {} },
            { tool: 'issue_refund', args: {} },
          ],
        },
        { text: 'Done.' },
      ],
    };
    const lines = simulateTrace(loaded.rules, trace).lines;
    const calls = lines[2];
    expect(calls?.type === 'calls' && calls.calls.map((call) => [call.verdict, call.shadowRefused?.[0]?.code])).toEqual(
      [
        ['allowed', undefined],
        ['allowed', 'max_count_reached'],
      ],
    );
    expect(lines[3]).toMatchObject({ type: 'text', endsRun: true, shadowHidden: ['issue_refund'] });
    const withoutShadow = lines.map((line) => JSON.stringify(line).replace(/,"shadow\w+":\[[^\]]*\]/g, ''));
    expect(withoutShadow.join('\n')).not.toContain('shadow');
    expect(JSON.stringify(lines[1])).toBe(
      '{"event":1,"type":"calls","visible":["check_eligibility"],"calls":[{"tool":"check_eligibility","verdict":"allowed","reasons":[]}]}',
    );
  });

  it('reports a refused approval of a shadow rule as approval_denied, and runs the call', () => {
    const rules = compileRules([shadow({ kind: 'requires_approval', tool: 'pay' })]);
    const lines = simulateTrace(rules, {
      tools: ['pay'],
      events: [{ calls: [{ tool: 'pay', approved: false }] }],
    }).lines;
    expect(lines[0]).toMatchObject({
      calls: [
        { tool: 'pay', verdict: 'allowed', shadowRequiresApproval: true, shadowRefused: [{ code: 'approval_denied' }] },
      ],
    });
  });
});

/** Rules without terminal ones: a shadow terminal rule keeps the run going, so the states would part. */
const scenario = fc.record({
  rules: fc.array(
    enforcedRuleArbitrary.filter((rule) => rule.kind !== 'terminal'),
    { maxLength: 6 },
  ),
  events: fc.array(
    fc.oneof(
      fc.record({ user: fc.constantFrom('', 'urgent help', 'make a plan') }),
      fc.record({
        calls: fc.array(
          fc.record({
            tool: fc.constantFrom(...fuzzTools),
            args: fc.oneof(fc.constant({}), fc.record({ id: fc.constantFrom(1, 2) })),
            result: fc.constantFrom<unknown>({ ok: true }, { ok: false }, 'x', '1', true, null),
            error: fc.boolean(),
          }),
          { minLength: 1, maxLength: 3 },
        ),
      }),
      fc.record({ text: fc.constant('answer') }),
    ),
    { minLength: 1, maxLength: 10 },
  ),
});

function compileBoth(rules: TestRule[]): { enforced: CompiledRuleSet; reported: CompiledRuleSet } | null {
  const enforced = compileRuleSet({ documents: [documentOf(rules)], catalog: fuzzTools });
  const reported = compileRuleSet({ documents: [documentOf(rules.map(shadow))], catalog: fuzzTools });
  return enforced.ok && reported.ok ? { enforced: enforced.rules, reported: reported.rules } : null;
}

describe('shadow rules against their enforced copies (property)', () => {
  it('report exactly what the enforced copy hides, refuses and asks for, on every state of a shadow session', () => {
    fc.assert(
      fc.property(scenario, ({ rules, events }) => {
        const both = compileBoth(rules);
        if (both === null) return;
        const { enforced, reported } = both;
        let state: RuleState = startRun(reported, initialRuleState(reported), { userMessage: '' });
        for (const event of events) {
          if ('user' in event) {
            state = startRun(reported, state, { userMessage: event.user });
            continue;
          }
          state = beginTurn(reported, state);
          if (state.ended !== null) {
            // An ended run (an accepted answer) refuses every call for its own reason, shadow or not.
            expect(narrow(reported, state, fuzzTools)).toEqual(narrow(enforced, state, fuzzTools));
            continue;
          }
          const wouldHide = narrow(enforced, state, fuzzTools);
          const narrowed = narrow(reported, state, fuzzTools);
          expect(narrowed.hidden).toEqual([]);
          expect(narrowed.shadowHidden?.map(({ tool }) => tool) ?? []).toEqual(
            wouldHide.hidden.map(({ tool }) => tool),
          );
          expect((narrowed.shadowHidden ?? []).map(({ reasons }) => said(reasons))).toEqual(
            wouldHide.hidden.map(({ reasons }) => said(reasons)),
          );
          expect(narrowed.shadowEnded).toBe(wouldHide.ended);
          if ('text' in event) {
            const end = checkEnd(reported, state);
            expect(end.reasons).toEqual([]);
            expect(said(end.shadowRefused)).toEqual(said(checkEnd(enforced, state).reasons));
            if (end.endsRun) state = endRun(state, 'answered');
            continue;
          }
          for (const call of event.calls) {
            const wouldRefuse = validate(enforced, state, { tool: call.tool, args: call.args }, fuzzTools);
            const verdict = validate(reported, state, { tool: call.tool, args: call.args }, fuzzTools);
            expect(verdict.verdict).toBe('allowed');
            expect(said(verdict.shadowRefused)).toEqual(
              said(wouldRefuse.verdict === 'blocked' ? wouldRefuse.reasons : []),
            );
            const asked = wouldRefuse.verdict === 'allowed' && wouldRefuse.requiresApproval;
            expect(verdict.shadowRequiresApproval ?? false).toBe(asked);
            state = record(reported, state, {
              tool: call.tool,
              args: call.args,
              result: call.result,
              error: call.error,
            });
          }
        }
      }),
      { seed: 46, numRuns: 400 },
    );
  });
});
