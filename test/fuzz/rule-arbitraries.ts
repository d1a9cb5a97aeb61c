import fc from 'fast-check';
import type { TestRule } from '../unit/rules/support/rule-session';

/** Tools of every fuzzed catalog; `zzz` in traces is a tool outside it. */
export const fuzzTools = ['a', 'b', 'c', 'd', 'e'];
const tools = fuzzTools;
const tool = fc.constantFrom(...tools);
const someTools = fc.uniqueArray(tool, { minLength: 1, maxLength: 3 });
const position = fc.oneof(tool, someTools);
const scope = fc.constantFrom('run', 'session');

/** Enforced rules of every kind over a small tool pool; resource bindings use one path so narrowing can be exact. */
export const enforcedRuleArbitrary: fc.Arbitrary<TestRule> = fc.oneof(
  fc.record({ kind: fc.constant('requires'), tool, after: someTools, mode: fc.constantFrom('all', 'any'), scope }),
  fc.record({ kind: fc.constant('forbids_after'), tool, forbids: someTools }),
  fc.record({ kind: fc.constant('max_count'), tool, limit: fc.integer({ min: 0, max: 3 }), scope }),
  fc.record(
    {
      kind: fc.constant('precondition'),
      tool,
      requires_prior_tool: tool,
      with_output: fc.constant([{ path: '$.ok', equals: true }]),
      resource: fc.constant({ bind_from: 'arguments', path: '$.id' }),
      requires_step_count: fc.record({ gte: fc.integer({ min: 0, max: 3 }) }),
    },
    { requiredKeys: ['kind', 'tool'] },
  ),
  fc.record({ kind: fc.constant('sequence'), positions: fc.array(position, { minLength: 1, maxLength: 3 }), scope }),
  fc.record({ kind: fc.constant('init'), tool }),
  fc.record({ kind: fc.constantFrom('child', 'parent'), tool, children: someTools }),
  fc.record(
    {
      kind: fc.constant('conditional'),
      tool,
      mapping: fc.array(fc.record({ when: fc.constantFrom('x', 'y', '1', 'true'), child: tool }), {
        minLength: 1,
        maxLength: 2,
      }),
      default_child: tool,
      strict: fc.boolean(),
    },
    { requiredKeys: ['kind', 'tool', 'mapping', 'strict'] },
  ),
  fc.record({ kind: fc.constantFrom('terminal', 'continue', 'required_before_exit', 'requires_approval'), tool }),
  fc.record(
    {
      kind: fc.constant('step'),
      name: fc.constantFrom('s1', 's2', 's3'),
      conditions: fc.array(
        fc.oneof(
          fc.record({ type: fc.constant('tool_used'), value: tool }),
          fc.record({ type: fc.constant('message_contains'), value: fc.constantFrom('urgent', 'plan') }),
        ),
        { maxLength: 1 },
      ),
      allowed: someTools,
      denied: fc.uniqueArray(tool, { maxLength: 1 }),
      sequence: fc.array(position, { minLength: 1, maxLength: 2 }),
      default: fc.boolean(),
    },
    { requiredKeys: ['kind', 'name', 'conditions'] },
  ),
  fc.record({ kind: fc.constant('default'), policy: fc.constantFrom('allow', 'block') }),
);

/** Rules of every kind, one in eight of them a shadow rule (`enforcement: shadow`). */
export const ruleArbitrary: fc.Arbitrary<TestRule> = fc
  .tuple(enforcedRuleArbitrary, fc.nat(7))
  .map(([rule, draw]) => (draw === 0 ? { ...rule, enforcement: 'shadow' } : rule));

const callArbitrary = fc.record({
  tool: fc.constantFrom(...tools, 'zzz'),
  args: fc.oneof(fc.constant({}), fc.record({ id: fc.constantFrom(1, 2) })),
  result: fc.constantFrom<unknown>({ ok: true }, { ok: false }, 'x', 'y', '1', true, null),
  error: fc.boolean(),
});

const eventArbitrary = fc.oneof(
  fc.record({ user: fc.constantFrom('', 'urgent help', 'make a plan') }),
  fc.record({ calls: fc.array(callArbitrary, { minLength: 1, maxLength: 3 }) }),
  fc.record({ text: fc.constant('answer') }),
);

/** A random rule set (every rule family) and a random trace. */
export const scenario = fc.record({
  rules: fc.array(ruleArbitrary, { maxLength: 6 }),
  events: fc.array(eventArbitrary, { minLength: 1, maxLength: 12 }),
});
