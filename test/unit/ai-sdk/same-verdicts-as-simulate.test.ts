import { describe, expect, it } from 'vitest';
import { RuleKind, formatDiagnostic, simulateTrace, traceSchemas } from '../../../src/rules';
import type { CompiledRuleSet, Reason, RuleSettings, SimulationLine, Trace } from '../../../src/rules';
import { loadRuleSet, loadTrace } from '../../../src/rules-files';
import { compileRules } from '../../helpers/compile-rules';
import { runTraceThroughPolicy } from '../../helpers/run-trace-through-policy';
import type { PolicyLoop } from '../../helpers/run-trace-through-policy';
import { readRuleState } from '../../../src/ai-sdk';
import type { ToolrailPolicyEvent } from '../../../src/ai-sdk';
import { fixture } from '../rules/support/fixtures';

/** A rule set and a trace to run both through `simulateTrace` and an AI SDK loop; `settings` override the rule set's. */
interface Case {
  readonly name: string;
  readonly load: (settings?: RuleSettings) => Promise<{ rules: CompiledRuleSet; trace: Trace }>;
}

/** The simulator's own cases: each fixture rule set with its recorded trace. */
const fixtureCases: Case[] = [
  ['spec-example.toolrail.yaml', 'traces/spec-example.trace.json'],
  ['refund-contracts', 'traces/refund.trace.json'],
  ['ticket-flow.graph.yaml', 'traces/ticket.trace.yaml'],
  ['letta-diagram.letta.json', 'traces/letta.trace.json'],
  ['research.agentdock.json', 'traces/research.trace.json'],
  ['required.toolrail.yaml', 'traces/unified.trace.yaml'],
].map(([rulesFile = '', traceFile = '']) => ({
  name: `${rulesFile} with ${traceFile}`,
  load: async (settings?: RuleSettings) => {
    const loadedTrace = await loadTrace(fixture(traceFile));
    if (!loadedTrace.ok) throw new Error(formatDiagnostic(loadedTrace.error));
    const paths = [fixture(rulesFile)];
    const loaded = await loadRuleSet({ paths, catalog: loadedTrace.trace.tools, ...(settings ? { settings } : {}) });
    if (!loaded.ok) throw new Error(loaded.errors.map(formatDiagnostic).join('\n'));
    return { rules: loaded.rules, trace: loadedTrace.trace };
  },
}));

/** Cases written here so that every rule kind, and the parts of the loop around them, is exercised. */
const inlineCases: Case[] = [
  {
    name: 'max_count per run and per session, forbids_after, failed attempts, a new run',
    rules: {
      toolrail: 1,
      rules: [
        { kind: 'max_count', tool: 'web_search', limit: 2, scope: 'run' },
        { kind: 'max_count', tool: 'notify', limit: 1, scope: 'session' },
        { kind: 'forbids_after', tool: 'close_ticket', forbids: ['reopen_ticket', 'notify'] },
      ],
    },
    trace: {
      tools: ['web_search', 'notify', 'close_ticket', 'reopen_ticket'],
      events: [
        { user: 'find it' },
        { calls: [{ tool: 'web_search' }, { tool: 'web_search' }, { tool: 'web_search' }] },
        { calls: [{ tool: 'notify' }, { tool: 'notify' }] },
        { text: 'found' },
        { user: 'again' },
        { calls: [{ tool: 'web_search', error: true }, { tool: 'reopen_ticket' }] },
        { calls: [{ tool: 'close_ticket' }, { tool: 'reopen_ticket' }, { tool: 'web_search' }] },
        { calls: [{ tool: 'web_search' }] },
        { text: 'done' },
      ],
    },
  },
  {
    name: 'conditional on the output, child, continue and terminal',
    rules: {
      toolrail: 1,
      rules: [
        {
          kind: 'conditional',
          tool: 'classify',
          path: '$.category',
          mapping: { refund: 'check_eligibility', question: 'web_search' },
          default_child: 'ask_human',
        },
        { kind: 'child', tool: 'check_eligibility', children: ['issue_refund', 'ask_human'] },
        { kind: 'continue', tool: 'web_search' },
        { kind: 'terminal', tool: 'send_final' },
      ],
    },
    trace: {
      tools: ['classify', 'check_eligibility', 'issue_refund', 'web_search', 'ask_human', 'send_final'],
      events: [
        { user: 'help me' },
        { calls: [{ tool: 'classify', result: { category: 'refund' } }] },
        { text: 'let me see' },
        { calls: [{ tool: 'web_search' }, { tool: 'check_eligibility', result: { eligible: true } }] },
        { calls: [{ tool: 'issue_refund' }, { tool: 'classify', result: { category: 'other' } }] },
        { calls: [{ tool: 'web_search' }, { tool: 'ask_human' }] },
        { calls: [{ tool: 'web_search' }] },
        { text: 'here you are' },
        { calls: [{ tool: 'send_final' }, { tool: 'classify' }] },
        { text: 'bye' },
      ],
    },
  },
  {
    name: 'parent, requires (any, per run) and requires (per session), in one response and across runs',
    rules: {
      toolrail: 1,
      rules: [
        { kind: 'parent', tool: 'ask_human', children: ['approve_gate'] },
        { kind: 'requires', tool: 'deploy', after: ['run_tests', 'dry_run'], mode: 'any', scope: 'run' },
        { kind: 'requires', tool: 'publish', after: ['deploy'], scope: 'session' },
      ],
    },
    trace: {
      tools: ['ask_human', 'approve_gate', 'run_tests', 'dry_run', 'deploy', 'publish'],
      events: [
        { user: 'ship it' },
        { calls: [{ tool: 'approve_gate' }, { tool: 'deploy' }, { tool: 'dry_run' }] },
        { calls: [{ tool: 'deploy' }, { tool: 'publish' }] },
        { calls: [{ tool: 'ask_human' }, { tool: 'approve_gate' }, { tool: 'publish' }] },
        { text: 'shipped' },
        { user: 'again' },
        { calls: [{ tool: 'deploy' }, { tool: 'publish' }] },
        { text: 'published' },
      ],
    },
  },
  {
    name: 'preconditions: output conditions, a bound resource, a step count',
    rules: {
      toolrail: 1,
      rules: [
        {
          kind: 'precondition',
          tool: 'issue_refund',
          requires_prior_tool: 'check_eligibility',
          with_output: [
            { path: '$.eligible', equals: true },
            { path: '$.amount', lte: 100 },
          ],
          resource: { bind_from: 'arguments', path: '$.order_id' },
        },
        { kind: 'precondition', tool: 'escalate', requires_step_count: { gte: 3 } },
      ],
    },
    trace: {
      tools: ['check_eligibility', 'issue_refund', 'escalate'],
      events: [
        { user: 'refund A, B and C' },
        {
          calls: [
            { tool: 'issue_refund', args: { order_id: 'A' } },
            { tool: 'escalate' },
            { tool: 'check_eligibility', args: { order_id: 'A' }, result: { eligible: true, amount: 50 } },
            { tool: 'check_eligibility', args: { order_id: 'B' }, result: { eligible: false, amount: 10 } },
          ],
        },
        {
          calls: [
            { tool: 'issue_refund', args: { order_id: 'B' } },
            { tool: 'issue_refund', args: { order_id: 'C' } },
            { tool: 'issue_refund', args: { order_id: 'A' } },
          ],
        },
        { calls: [{ tool: 'check_eligibility', args: { order_id: 'C' }, result: { eligible: true, amount: 500 } }] },
        { calls: [{ tool: 'issue_refund', args: { order_id: 'C' } }, { tool: 'escalate' }] },
        { text: 'done' },
      ],
    },
  },
  {
    name: 'sequence with alternatives',
    rules: { toolrail: 1, rules: [{ kind: 'sequence', positions: ['open', ['think', 'reflect'], 'close'] }] },
    trace: {
      tools: ['open', 'think', 'reflect', 'close', 'chat'],
      events: [
        { user: 'go' },
        { calls: [{ tool: 'think' }, { tool: 'open' }, { tool: 'reflect' }] },
        { calls: [{ tool: 'chat' }, { tool: 'close' }, { tool: 'chat' }] },
        { text: 'closed' },
      ],
    },
  },
  {
    name: 'orchestration steps chosen by the message and by tools used',
    rules: {
      toolrail: 1,
      rules: [
        {
          kind: 'step',
          name: 'urgent',
          conditions: [{ type: 'message_contains', value: 'urgent' }],
          allowed: ['page_oncall', 'lookup'],
        },
        {
          kind: 'step',
          name: 'after-lookup',
          conditions: [{ type: 'tool_used', value: 'lookup' }],
          denied: ['lookup'],
        },
        { kind: 'step', name: 'default', default: true, allowed: ['lookup', 'chat'] },
      ],
    },
    trace: {
      tools: ['page_oncall', 'lookup', 'chat'],
      events: [
        { user: 'hello' },
        { calls: [{ tool: 'page_oncall' }, { tool: 'chat' }, { tool: 'lookup' }] },
        { calls: [{ tool: 'lookup' }, { tool: 'page_oncall' }] },
        { text: 'ok' },
        { user: 'this is urgent' },
        { calls: [{ tool: 'chat' }, { tool: 'page_oncall' }] },
        { text: 'paged' },
      ],
    },
  },
  {
    name: 'init, approvals (granted, denied, and a call queued behind one) and required_before_exit',
    rules: {
      toolrail: 1,
      rules: [
        { kind: 'init', tool: 'load_context' },
        { kind: 'requires_approval', tool: 'deploy' },
        { kind: 'required_before_exit', tool: 'report' },
      ],
    },
    trace: {
      tools: ['load_context', 'deploy', 'notify', 'report'],
      events: [
        { user: 'deploy it' },
        { calls: [{ tool: 'deploy' }, { tool: 'load_context' }] },
        { calls: [{ tool: 'deploy' }, { tool: 'notify' }] },
        { text: 'deployed' },
        { calls: [{ tool: 'deploy', approved: false }, { tool: 'report' }] },
        { text: 'reported' },
      ],
    },
  },
  {
    name: 'default block, an unknown tool, and the turn limit',
    rules: {
      toolrail: 1,
      default: 'block',
      maxTurnsPerRun: 3,
      rules: [{ kind: 'requires', tool: 'read', after: ['search'] }],
    },
    trace: {
      tools: ['search', 'read', 'shell'],
      events: [
        { user: 'read it' },
        { calls: [{ tool: 'shell' }, { tool: 'rm_everything' }, { tool: 'search' }, { tool: 'read' }] },
        { calls: [{ tool: 'read' }] },
        { calls: [{ tool: 'read' }] },
        { calls: [{ tool: 'search' }] },
        { text: 'read' },
      ],
    },
  },
  {
    name: 'narrowing that leaves no tool ends the run',
    rules: { toolrail: 1, rules: [{ kind: 'max_count', tool: 'a', limit: 1 }] },
    trace: {
      tools: ['a'],
      events: [{ user: 'x' }, { calls: [{ tool: 'a' }] }, { calls: [{ tool: 'a' }] }, { text: 'ok' }],
    },
  },
].map(({ name, rules, trace }) => ({
  name,
  load: (settings?: RuleSettings) =>
    Promise.resolve({
      rules: compileRules(rules, settings ? { settings } : {}),
      trace: traceSchemas().trace.parse(trace),
    }),
}));

const cases = [...fixtureCases, ...inlineCases];

/** The calls a session runs although narrowing hid their tool at the start of their turn (an earlier call of the response allowed them). */
function unlockedInTheirResponse(lines: readonly SimulationLine[]): { event: number; call: number }[] {
  return lines.flatMap((line) =>
    line.type !== 'calls'
      ? []
      : line.calls.flatMap((call, index) =>
          call.verdict === 'allowed' && !line.visible.includes(call.tool) ? [{ event: line.event, call: index }] : [],
        ),
  );
}
const loops: PolicyLoop[] = ['generateText', 'streamText', 'ToolLoopAgent'];

/**
 * The trace without the human's answers to calls only a shadow approval rule covers: no human is
 * asked about those, so no answer comes (`simulateTrace` would report a refusal as `approval_denied`).
 */
function withoutShadowApprovalAnswers(rules: CompiledRuleSet, trace: Trace): Trace {
  const { lines } = simulateTrace(rules, trace);
  const events = trace.events.map((event, index) => {
    const line = lines.find((candidate) => candidate.event === index);
    if (!('calls' in event) || line?.type !== 'calls') return event;
    return {
      calls: event.calls.map((call, c) => {
        if (line.calls[c]?.shadowRequiresApproval !== true) return call;
        const { approved: _answer, ...unanswered } = call;
        return unanswered;
      }),
    };
  });
  return { ...trace, events };
}

/** The reasons of rules (not built-ins such as an unknown tool or the turn limit) that hid a tool, refused a call or an answer. */
function ruleReasons(events: readonly ToolrailPolicyEvent[]): Reason[] {
  const isRules = (reason: Reason) => reason.rule.kind !== 'builtin';
  return events.flatMap((event) => {
    if (event.type === 'tools-narrowed') return event.hidden.flatMap(({ reasons }) => reasons.filter(isRules));
    if (event.type === 'verdict' || event.type === 'end-checked') return event.reasons.filter(isRules);
    return [];
  });
}

/** The rule set with only its rule at `index` in shadow. */
function withShadowRule(rules: CompiledRuleSet, index: number): CompiledRuleSet {
  return {
    ...rules,
    rules: rules.rules.map((rule, position) => (position === index ? { ...rule, enforcement: 'shadow' } : rule)),
  };
}

describe('the AI SDK policy gives the verdicts of a session', () => {
  it('is tested over every rule kind', async () => {
    const kinds = new Set<string>();
    for (const { load } of cases) for (const rule of (await load()).rules.rules) kinds.add(rule.kind);
    expect([...kinds].sort()).toEqual(Object.values(RuleKind).sort());
  });

  for (const loop of loops) {
    describe(loop, () => {
      for (const { name, load } of cases) {
        it(`gives simulate's verdicts, reasons, hidden tools and final state: ${name}`, async () => {
          const { rules, trace } = await load();
          const expected = simulateTrace(rules, trace);
          const actual = await runTraceThroughPolicy(rules, trace, { loop });
          expect(actual.lines).toEqual(expected.lines);
          expect(actual.state).toEqual(expected.state);
        });
      }
    });
  }

  describe('generateText with activeTools (the model not wrapped)', () => {
    for (const { name, load } of cases) {
      it(`gives simulate's verdicts, except a hidden tool's call its own response allows, refused there: ${name}`, async () => {
        const { rules, trace } = await load();
        const expected = simulateTrace(rules, trace);
        const actual = await runTraceThroughPolicy(rules, trace, { wrapModel: false });
        const [first] = unlockedInTheirResponse(expected.lines);
        if (first === undefined) {
          expect(actual.lines).toEqual(expected.lines);
          expect(actual.state).toEqual(expected.state);
          return;
        }
        // Up to that response the lines are the same; there, the AI SDK cannot run the hidden tool.
        const at = expected.lines.findIndex((line) => line.event === first.event);
        expect(actual.lines.slice(0, at)).toEqual(expected.lines.slice(0, at));
        const line = actual.lines[at];
        expect(line?.type === 'calls' && line.calls[first.call]?.verdict).toBe('blocked');
      });
    }
  });

  describe('with the rules in shadow (generateText)', () => {
    for (const { name, load } of cases) {
      it(`runs to the end hiding and refusing nothing, and reports simulate's shadow verdicts: ${name}`, async () => {
        const { rules, trace: recorded } = await load({ enforcement: 'shadow' });
        const trace = withoutShadowApprovalAnswers(rules, recorded);
        const expected = simulateTrace(rules, trace);
        const actual = await runTraceThroughPolicy(rules, trace);
        expect(actual.lines).toEqual(expected.lines);
        expect(actual.state).toEqual(expected.state);
        expect(ruleReasons(actual.events)).toEqual([]);
        expect(actual.events.some((event) => event.type === 'verdict' && event.requiresApproval)).toBe(false);
        expect(actual.events.some((event) => event.type === 'rule-shadowed')).toBe(true);
      });

      it(`reports the same with the enforced rules and the policy's enforcement: 'shadow': ${name}`, async () => {
        const { rules: shadowRules, trace: recorded } = await load({ enforcement: 'shadow' });
        const { rules } = await load();
        const trace = withoutShadowApprovalAnswers(shadowRules, recorded);
        const expected = simulateTrace(shadowRules, trace);
        const actual = await runTraceThroughPolicy(rules, trace, { enforcement: 'shadow' });
        expect(actual.lines).toEqual(expected.lines);
        expect(actual.state).toEqual(expected.state);
        expect(ruleReasons(actual.events)).toEqual([]);
        // Enforcing them next goes on from the state the shadow policy left.
        expect(readRuleState(rules, JSON.stringify(actual.state))).toEqual(actual.state);
      });

      it(`enforces the other rules and reports the one in shadow, for each rule: ${name}`, async () => {
        const { rules, trace: recorded } = await load();
        for (const index of rules.rules.keys()) {
          const mixed = withShadowRule(rules, index);
          const trace = withoutShadowApprovalAnswers(mixed, recorded);
          const expected = simulateTrace(mixed, trace);
          const actual = await runTraceThroughPolicy(mixed, trace);
          expect(actual.lines, `rules[${index}] in shadow`).toEqual(expected.lines);
          expect(actual.state, `rules[${index}] in shadow`).toEqual(expected.state);
        }
      });
    }
  });
});
