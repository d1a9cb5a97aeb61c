import { readFile } from 'node:fs/promises';
import type { CompiledRuleSet, RuleState } from '../../src/rules/index';
import {
  beginTurn,
  compileRuleSet,
  formatDiagnostic,
  importLetta,
  initialRuleState,
  narrow,
  record,
  startRun,
  validate,
} from '../../src/rules/index';
import type { Timing } from './measure';
import { summarize } from './measure';
import { pick, seededRandom } from './seeded-random';

/** A benchmark rule set of Letta's: catalog, rules and the outputs its conditional tools return. */
interface LettaBenchFile {
  readonly tools: string[];
  readonly tool_rules: unknown[];
  readonly tool_outputs: Record<string, string[]>;
}

/** Loads one of Letta's benchmark files through the Letta importer. */
export async function loadLettaBench(
  file: string,
): Promise<{ rules: CompiledRuleSet; catalog: string[]; outputs: Map<string, string[]> }> {
  const data = JSON.parse(await readFile(file, 'utf8')) as LettaBenchFile;
  const imported = importLetta({ file, value: data.tool_rules });
  if (!imported.ok) throw new Error(imported.errors.map(formatDiagnostic).join('\n'));
  const compiled = compileRuleSet({ documents: [imported.document], catalog: data.tools });
  if (!compiled.ok) throw new Error(compiled.errors.map(formatDiagnostic).join('\n'));
  return { rules: compiled.rules, catalog: data.tools, outputs: new Map(Object.entries(data.tool_outputs)) };
}

/**
 * One step of Letta's agent loop in toolrail: narrow (the allowed tools given the last output), pick
 * one visible tool with the seeded generator, validate it, record it with an output. A run that ended
 * (terminal tool, or nothing visible) is followed by a new user message, as a session would go on.
 */
export function lettaStep(
  rules: CompiledRuleSet,
  catalog: readonly string[],
  outputs: Map<string, string[]>,
  state: RuleState,
  random: () => number,
): RuleState {
  let current = beginTurn(rules, state);
  let visible = narrow(rules, current, catalog).visible;
  if (visible.length === 0) {
    current = beginTurn(rules, startRun(rules, current, { userMessage: 'next' }));
    visible = narrow(rules, current, catalog).visible;
    if (visible.length === 0) return current;
  }
  const tool = pick(visible, random);
  if (validate(rules, current, { tool, args: {} }, catalog).verdict !== 'allowed') return current;
  const choices = outputs.get(tool);
  const result = choices ? pick(choices, random) : 'ok';
  return record(rules, current, { tool, args: {}, result, error: false });
}

/**
 * Median and spread of one Letta step, in microseconds, early in a session (after `short` steps) and
 * late (after `long` steps): both sessions advance step by step, timed in alternation so that load on
 * the machine affects both alike.
 */
export function lettaStepCosts(
  bench: { rules: CompiledRuleSet; catalog: string[]; outputs: Map<string, string[]> },
  short: number,
  long: number,
  samples: number,
): [Timing, Timing] {
  const sessions = [short, long].map((prior) => {
    const random = seededRandom(42);
    let state = startRun(bench.rules, initialRuleState(bench.rules), { userMessage: 'go' });
    for (let i = 0; i < prior; i++) state = lettaStep(bench.rules, bench.catalog, bench.outputs, state, random);
    return { state, random, times: [] as number[] };
  });
  for (let i = 0; i < samples; i++) {
    for (const session of sessions) {
      const start = process.hrtime.bigint();
      session.state = lettaStep(bench.rules, bench.catalog, bench.outputs, session.state, session.random);
      session.times.push(Number(process.hrtime.bigint() - start) / 1000);
    }
  }
  const [early, late] = sessions.map((session) => summarize(session.times));
  if (early === undefined || late === undefined) throw new Error('unreachable');
  return [early, late];
}
