import fc from 'fast-check';
import type { CompiledRuleSet, RuleState, Trace } from '../../src/rules/index';
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
} from '../../src/rules/index';
import type { TestRule } from '../unit/rules/support/rule-session';
import { documentOf } from '../unit/rules/support/rule-session';
import { fuzzTools, scenario } from './rule-arbitraries';

/** Options of {@link runFuzz}. */
export interface FuzzOptions {
  /** fast-check seed; the same seed and count give the same run. */
  readonly seed: number;
  /** Number of random (rule set, trace) pairs. */
  readonly count: number;
}

/** Figures of a fuzz run; `failure` is fast-check's report (with the seed and counterexample) if one failed. */
export interface FuzzFigures {
  readonly seed: number;
  readonly ruleSets: number;
  readonly compiled: number;
  readonly traces: number;
  readonly steps: number;
  readonly failure: string | null;
}

/** The verdicts of the runtime engine path (narrow, validate, record, checkEnd), one entry per call or text. */
function runtimeVerdicts(
  rules: CompiledRuleSet,
  events: Trace['events'],
): { verdicts: boolean[]; states: RuleState[] } {
  let state = initialRuleState(rules);
  let started = false;
  const verdicts: boolean[] = [];
  const states: RuleState[] = [];
  for (const event of events) {
    if ('user' in event) {
      state = startRun(rules, state, { userMessage: event.user });
      started = true;
      states.push(state);
      continue;
    }
    if (!started) {
      state = startRun(rules, state, { userMessage: '' });
      started = true;
    }
    state = beginTurn(rules, state);
    const narrowed = narrow(rules, state, fuzzTools);
    if (narrowed.ended !== undefined) state = endRun(state, narrowed.ended);
    if ('text' in event) {
      const ends = checkEnd(rules, state).endsRun;
      if (ends) state = endRun(state, 'answered');
      verdicts.push(ends);
    } else {
      for (const call of event.calls) {
        const args = call.args ?? {};
        const allowed = validate(rules, state, { tool: call.tool, args }, fuzzTools).verdict === 'allowed';
        if (allowed) {
          state = record(rules, state, {
            tool: call.tool,
            args,
            result: call.result ?? null,
            error: call.error ?? false,
          });
        }
        verdicts.push(allowed);
      }
    }
    states.push(state);
  }
  return { verdicts, states };
}

function simulatedVerdicts(lines: ReturnType<typeof simulateTrace>['lines']): boolean[] {
  return lines.flatMap((line) =>
    line.type === 'user' ? [] : line.type === 'text' ? [line.endsRun] : line.calls.map((c) => c.verdict === 'allowed'),
  );
}

function fail(message: string): never {
  throw new Error(message);
}

/**
 * Checks the engine and the simulator over `count` random rule sets of every family × random traces:
 * nothing throws, the runtime path and the simulator agree on every verdict and on the final state,
 * removing the blocked calls from a trace changes nothing (blocked calls are never recorded), and
 * the forbidden set never shrinks within a run.
 */
export function runFuzz(options: FuzzOptions): FuzzFigures {
  let ruleSets = 0;
  let compiled = 0;
  let steps = 0;
  const property = fc.property(
    scenario,
    ({ rules: ruleList, events }: { rules: TestRule[]; events: Trace['events'] }) => {
      ruleSets++;
      const result = compileRuleSet({ documents: [documentOf(ruleList)], catalog: fuzzTools });
      if (!result.ok) return;
      compiled++;
      const rules = result.rules;
      const trace = { tools: fuzzTools, events };
      const simulated = simulateTrace(rules, trace);
      const runtime = runtimeVerdicts(rules, events);
      const fromSimulator = simulatedVerdicts(simulated.lines);
      steps += fromSimulator.length;
      if (JSON.stringify(fromSimulator) !== JSON.stringify(runtime.verdicts))
        fail(`runtime ${JSON.stringify(runtime.verdicts)} ≠ simulator ${JSON.stringify(fromSimulator)}`);
      if (JSON.stringify(runtime.states.at(-1)) !== JSON.stringify(simulated.state)) fail('final states differ');
      const kept = events.map((event, e) => {
        const line = simulated.lines[e];
        if (!('calls' in event) || line?.type !== 'calls') return event;
        return { calls: event.calls.filter((_, c) => line.calls[c]?.verdict === 'allowed') };
      });
      if (
        JSON.stringify(simulateTrace(rules, { tools: fuzzTools, events: kept }).state) !==
        JSON.stringify(simulated.state)
      )
        fail('removing blocked calls changed the final state: a blocked call was recorded');
      let forbidden = new Set<string>();
      let run = -1;
      for (const state of runtime.states) {
        const now = new Set(describeRuleState(rules, state, fuzzTools).forbidden.map((entry) => entry.tool));
        if (state.run === run) {
          for (const name of forbidden) if (!now.has(name)) fail(`${name} left the forbidden set within run ${run}`);
        }
        forbidden = now;
        run = state.run;
      }
    },
  );
  const details = fc.check(property, { seed: options.seed, numRuns: options.count });
  return {
    seed: options.seed,
    ruleSets,
    compiled,
    traces: ruleSets,
    steps,
    failure: details.failed ? (fc.defaultReportMessage(details) ?? 'failed') : null,
  };
}
