import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CompiledRuleSet, RuleState, Trace } from '../../../src/rules/index';
import {
  beginTurn,
  checkEnd,
  compileRuleSet,
  describeRuleState,
  endRun,
  initialRuleState,
  narrow,
  record,
  simulateTrace,
  startRun,
  validate,
} from '../../../src/rules/index';
import type { TestRule } from './support/rule-session';
import { fuzzTools, scenario } from '../../fuzz/rule-arbitraries';
import { documentOf } from './support/rule-session';

const tools = fuzzTools;

/** Scenarios dense in resource-bound preconditions, where narrowing must intersect bound values. */
const resourceScenario = fc.record({
  rules: fc.array(
    fc.record({
      kind: fc.constant('precondition'),
      tool: fc.constantFrom('a', 'b'),
      requires_prior_tool: fc.constantFrom('c', 'd', 'e'),
      with_output: fc.constantFrom([{ path: '$.ok', equals: true }], [{ path: '$.ok', exists: true }]),
      resource: fc.constant({ bind_from: 'arguments', path: '$.id' }),
    }),
    { minLength: 1, maxLength: 3 },
  ),
  events: fc.array(
    fc.record({
      calls: fc.array(
        fc.record({
          tool: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
          args: fc.record({ id: fc.constantFrom(1, 2) }),
          result: fc.constantFrom<unknown>({ ok: true }, { ok: true }, { ok: false }, {}),
          error: fc.constantFrom(false, false, true),
        }),
        { minLength: 1, maxLength: 3 },
      ),
    }),
    { minLength: 1, maxLength: 8 },
  ),
});

function compile(rules: TestRule[]): CompiledRuleSet | null {
  const result = compileRuleSet({ documents: [documentOf(rules)], catalog: tools });
  return result.ok ? result.rules : null;
}

/** Every state the session passes through, driving the engine as the workflow would. */
function* walk(rules: CompiledRuleSet, events: Trace['events']): Generator<{ state: RuleState; step: string }> {
  let state = startRun(rules, initialRuleState(rules), { userMessage: '' });
  yield { state, step: 'start' };
  for (const event of events) {
    if ('user' in event) state = startRun(rules, state, { userMessage: event.user });
    else {
      state = beginTurn(rules, state);
      if (narrow(rules, state, tools).ended !== undefined) state = endRun(state, 'no_tool_allowed');
      if ('text' in event) {
        if (checkEnd(rules, state).endsRun) state = endRun(state, 'answered');
      } else {
        for (const call of event.calls) {
          yield { state, step: 'before-call' };
          if (validate(rules, state, { tool: call.tool, args: call.args }, tools).verdict === 'allowed') {
            state = record(rules, state, {
              tool: call.tool,
              args: call.args,
              result: call.result,
              error: call.error ?? false,
            });
          }
        }
      }
    }
    yield { state, step: 'event' };
  }
}

const runs = { numRuns: 300 };

describe('rule engine invariants (property tests)', () => {
  it('a blocked call is never recorded: removing it from the trace changes nothing that follows', () => {
    fc.assert(
      fc.property(scenario, ({ rules: ruleList, events }) => {
        const rules = compile(ruleList);
        fc.pre(rules !== null);
        if (rules === null) return;
        const full = simulateTrace(rules, { tools, events });
        const kept = events.map((event, e) => {
          if (!('calls' in event)) return event;
          const line = full.lines[e];
          if (line?.type !== 'calls') return event;
          return { calls: event.calls.filter((_, c) => line.calls[c]?.verdict === 'allowed') };
        });
        const filtered = simulateTrace(rules, { tools, events: kept });
        expect(filtered.state).toEqual(full.state);
        const visible = (lines: typeof full.lines) =>
          lines.map((line) => ('visible' in line ? line.visible : line.run));
        expect(visible(filtered.lines)).toEqual(visible(full.lines));
      }),
      runs,
    );
  });

  it('the forbidden set never shrinks', () => {
    fc.assert(
      fc.property(scenario, ({ rules: ruleList, events }) => {
        const rules = compile(ruleList);
        fc.pre(rules !== null);
        if (rules === null) return;
        let before = new Set<string>();
        for (const { state } of walk(rules, events)) {
          const now = new Set(describeRuleState(rules, state, tools).forbidden.map((entry) => entry.tool));
          for (const name of before) expect(now.has(name)).toBe(true);
          before = now;
        }
      }),
      runs,
    );
  });

  it('every visible tool has some arguments that validate, and every hidden one has none', () => {
    const candidates: unknown[] = [{}, { id: 1 }, { id: 2 }];
    fc.assert(
      fc.property(fc.oneof(scenario, resourceScenario), ({ rules: ruleList, events }) => {
        const rules = compile(ruleList);
        fc.pre(rules !== null);
        if (rules === null) return;
        for (const { state } of walk(rules, events)) {
          const { visible } = narrow(rules, state, tools);
          for (const name of tools) {
            const validates = candidates.some(
              (args) => validate(rules, state, { tool: name, args }, tools).verdict === 'allowed',
            );
            expect(validates, `${name} visible=${visible.includes(name)}`).toBe(visible.includes(name));
          }
        }
      }),
      runs,
    );
  });

  it('the state survives a JSON round trip unchanged, and the engine continues identically from it', () => {
    fc.assert(
      fc.property(scenario, ({ rules: ruleList, events }) => {
        const rules = compile(ruleList);
        fc.pre(rules !== null);
        if (rules === null) return;
        for (const { state } of walk(rules, events)) {
          const copy = JSON.parse(JSON.stringify(state)) as RuleState;
          expect(copy).toEqual(state);
          expect(narrow(rules, copy, tools)).toEqual(narrow(rules, state, tools));
          expect(checkEnd(rules, copy)).toEqual(checkEnd(rules, state));
        }
      }),
      runs,
    );
  });

  it('the same inputs give the same outputs', () => {
    fc.assert(
      fc.property(scenario, ({ rules: ruleList, events }) => {
        const first = compile(ruleList);
        fc.pre(first !== null);
        const second = compile(structuredClone(ruleList));
        if (first === null || second === null) return;
        expect(second).toEqual(first);
        expect(simulateTrace(second, { tools, events })).toEqual(simulateTrace(first, { tools, events }));
      }),
      runs,
    );
  });
});
