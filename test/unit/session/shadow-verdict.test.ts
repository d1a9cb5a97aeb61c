import { describe, expect, it } from 'vitest';
import { beginTurn, checkEnd, initialRuleState, narrow, record, startRun, validate } from '../../../src/rules';
import type { CompiledRuleSet, Reason, RuleState } from '../../../src/rules';
import { shadowVerdictOf, shadowVerdictView } from '../../../src/session';
import type { ShadowVerdict } from '../../../src/session';
import { compileRules } from '../../helpers/compile-rules';

const catalog = ['check_eligibility', 'close_case', 'issue_refund', 'send_survey'];

/** The rules of a refund desk, enforced or each reported only (`shadow`), with one shadow approval and exit rule. */
function deskRules(enforcement: 'enforce' | 'shadow'): CompiledRuleSet {
  return compileRules(`
toolrail: 1
rules:
  - { kind: requires, id: refund-after-check, tool: issue_refund, after: [check_eligibility], enforcement: ${enforcement} }
  - { kind: forbids_after, id: no-refund-after-close, tool: close_case, forbids: [issue_refund], enforcement: ${enforcement} }
  - { kind: requires_approval, id: check-approval, tool: check_eligibility, enforcement: shadow }
  - { kind: required_before_exit, id: survey-before-exit, tool: send_survey, enforcement: shadow }
`);
}

/** The state after a user message and the calls `ran` (each completed), in a new turn. */
function after(rules: CompiledRuleSet, ran: readonly string[]): RuleState {
  let state = startRun(rules, initialRuleState(rules), { userMessage: 'refund my order' });
  for (const tool of ran) state = record(rules, state, { tool, args: {}, result: {}, error: false });
  return beginTurn(rules, state);
}

/** Reasons without the rule that gave them, to compare a shadow rule's with its enforced copy's. */
const said = (reasons: readonly Reason[]) =>
  reasons.map(({ code, message, callFirst }) => ({ code, message, callFirst }));

const refund = { callId: 'c1', tool: 'issue_refund' };

describe('what shadow rules would have done at a step of a session', () => {
  it('lists the visible tools a turn’s narrowing would hide, with the reasons the enforced rules hide them with', () => {
    const [shadow, enforced] = [deskRules('shadow'), deskRules('enforce')];
    const narrowed = narrow(shadow, after(shadow, []), catalog);
    const verdict = shadowVerdictOf({ narrowed });
    expect(verdict).toMatchObject({ kind: 'hidden', tools: [{ tool: 'issue_refund' }] });
    expect(verdict).not.toHaveProperty('ended');
    const hidden = narrow(enforced, after(enforced, []), catalog).hidden;
    expect(verdict?.kind === 'hidden' && said(verdict.tools[0]?.reasons ?? [])).toEqual(said(hidden[0]?.reasons ?? []));
    expect(verdict?.kind === 'hidden' && verdict.tools[0]?.reasons[0]?.rule.id).toBe('refund-after-check');
    // Enforced, the rules hide it themselves: nothing is left for shadow rules to say.
    expect(shadowVerdictOf({ narrowed: narrow(enforced, after(enforced, []), catalog) })).toBeUndefined();
  });

  it('says when hiding them would leave the model no tool', () => {
    const rules = deskRules('shadow');
    const narrowed = narrow(rules, after(rules, []), ['issue_refund']);
    expect(shadowVerdictOf({ narrowed })).toMatchObject({ kind: 'hidden', ended: 'no_tool_allowed' });
  });

  it('reports an allowed call they would refuse, with the reasons the enforced rules refuse it with', () => {
    const [shadow, enforced] = [deskRules('shadow'), deskRules('enforce')];
    const args = { order_id: 'A-1' };
    for (const ran of [[], ['check_eligibility', 'close_case']]) {
      const verdict = validate(shadow, after(shadow, ran), { tool: 'issue_refund', args }, catalog);
      const blocked = validate(enforced, after(enforced, ran), { tool: 'issue_refund', args }, catalog);
      expect(blocked.verdict).toBe('blocked');
      const shadowed = shadowVerdictOf({ call: refund, verdict });
      expect(shadowed).toMatchObject({ kind: 'refused', callId: 'c1', tool: 'issue_refund' });
      expect(shadowed?.kind === 'refused' && said(shadowed.reasons)).toEqual(said(blocked.reasons));
      // Refused by the enforced rules, the call has its own verdict.
      expect(shadowVerdictOf({ call: refund, verdict: blocked })).toBeUndefined();
    }
  });

  it('reports a call a shadow requires_approval rule would have put up for a human, with no reasons', () => {
    const rules = deskRules('shadow');
    const verdict = validate(rules, after(rules, []), { tool: 'check_eligibility', args: {} }, catalog);
    expect(verdict.requiresApproval).toBe(false);
    expect(shadowVerdictOf({ call: { callId: 'c2', tool: 'check_eligibility' }, verdict })).toEqual({
      kind: 'approval',
      callId: 'c2',
      tool: 'check_eligibility',
      reasons: [],
    });
  });

  it('reports an answer that ends the run which they would refuse, and nothing for an answer that does not end it', () => {
    const rules = deskRules('shadow');
    const end = checkEnd(rules, after(rules, ['check_eligibility']));
    expect(end.endsRun).toBe(true);
    expect(shadowVerdictOf({ end })).toEqual({ kind: 'end', reasons: end.shadowRefused });
    expect(end.shadowRefused?.map(({ code }) => code)).toEqual(['required_before_exit']);
    expect(shadowVerdictOf({ end: { endsRun: false, reasons: end.shadowRefused ?? [] } })).toBeUndefined();
  });

  it('says nothing where no shadow rule would have done anything', () => {
    const rules = deskRules('shadow');
    const state = after(rules, ['check_eligibility', 'send_survey']);
    expect(shadowVerdictOf({ narrowed: narrow(rules, state, catalog) })).toBeUndefined();
    const verdict = validate(rules, state, { tool: 'issue_refund', args: {} }, catalog);
    expect(shadowVerdictOf({ call: refund, verdict })).toBeUndefined();
    expect(shadowVerdictOf({ end: checkEnd(rules, state) })).toBeUndefined();
  });
});

describe('a shadow verdict as the feed and the transcript show it', () => {
  const reason = (tool: string, message = `${tool} needs check_eligibility first`): Reason => ({
    code: 'prerequisite_not_met',
    message,
    rule: { kind: 'requires', id: 'refund-after-check', file: 'rules.yaml', index: 0, path: 'rules[0]', line: 3 },
    callFirst: ['check_eligibility'],
  });

  it('keeps each reason’s code, message and callFirst, and names its rule by id', () => {
    const verdict: ShadowVerdict = { kind: 'refused', callId: 'c1', tool: 'issue_refund', reasons: [reason('a')] };
    expect(shadowVerdictView(verdict)).toEqual({
      kind: 'refused',
      callId: 'c1',
      tool: 'issue_refund',
      reasons: [
        {
          code: 'prerequisite_not_met',
          message: 'a needs check_eligibility first',
          callFirst: ['check_eligibility'],
          rule: 'refund-after-check',
        },
      ],
    });
  });

  it('cuts long messages and lists at most the hidden tools it is given room for', () => {
    const tools = Array.from({ length: 5 }, (_, index) => ({
      tool: `tool_${index}`,
      reasons: [reason(`tool_${index}`, 'x'.repeat(5_000))],
    }));
    const view = shadowVerdictView({ kind: 'hidden', tools, ended: 'no_tool_allowed' }, 3);
    expect(view).toMatchObject({ kind: 'hidden', ended: 'no_tool_allowed' });
    expect(view.kind === 'hidden' && view.tools.map(({ tool }) => tool)).toEqual(['tool_0', 'tool_1', 'tool_2']);
    const message = view.kind === 'hidden' ? (view.tools[0]?.reasons[0]?.message ?? '') : '';
    expect(message.length).toBeLessThanOrEqual(1_001);
    expect(message.startsWith('xxx')).toBe(true);
  });
});
