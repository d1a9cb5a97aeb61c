import { describe, expect, it } from 'vitest';
import { ReasonCode, RuleKind, buildRuleBodySchema, ruleKinds } from '../../../src/rules/index';

const pieces = [
  'kind',
  'reasonCodes',
  'schema',
  'tools',
  'load',
  'index',
  'initialState',
  'startRun',
  'describe',
  'graph',
  'formats',
] as const;

describe('the rule kind registry', () => {
  it('lists each kind under its own name, with every piece of a kind module', () => {
    for (const [name, module] of Object.entries(ruleKinds)) {
      expect(module.kind).toBe(name);
      const fields = module as unknown as Record<string, unknown>;
      for (const piece of pieces) expect(fields[piece], `${name}.${piece}`).toBeDefined();
    }
  });

  it('gives every kind a camel-case name in RuleKind and every reason code in ReasonCode', () => {
    expect(Object.values(RuleKind).sort()).toEqual(Object.keys(ruleKinds).sort());
    expect(RuleKind.forbidsAfter).toBe('forbids_after');
    expect(RuleKind.requiredBeforeExit).toBe('required_before_exit');
    const codes = new Set(Object.values(ReasonCode));
    for (const module of Object.values(ruleKinds)) {
      for (const code of Object.values(module.reasonCodes)) expect(codes.has(code)).toBe(true);
    }
    expect(ReasonCode.turnLimit).toBe('turn_limit');
    expect(ReasonCode.prerequisiteNotMet).toBe('prerequisite_not_met');
  });

  it("builds the rule schema from every kind's own schema, in the registry's order", () => {
    const parsed = buildRuleBodySchema().safeParse({ kind: 'nope' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toContain(
      Object.keys(ruleKinds)
        .map((kind) => `'${kind}'`)
        .join(' | '),
    );
  });
});
