import { join } from 'node:path';
import { engineCost } from './engine/engine-cost-bench';
import { lettaStepCosts, loadLettaBench } from './engine/letta-step-bench';
import { timingText } from './engine/measure';
import { syntheticRules } from './engine/synthetic-rules';

/** Where Letta's benchmark rule sets live (override with TOOLRAIL_LETTA_BENCH_DIR). */
const lettaBenchDir = process.env['TOOLRAIL_LETTA_BENCH_DIR'] ?? join(__dirname, 'letta-rule-sets');

/**
 * Letta's ToolRulesSolver per step (get allowed + register), median, in µs: QUOTED, not measured by
 * this benchmark (Letta 0.16.8, Python 3.11, pydantic 2.11, on a 2-core machine; see
 * letta-rule-sets/README.md). toolrail's figures are measured in this run; the ratios compare a
 * measured figure with a quoted one, so they shift with the machine.
 */
const lettaFigures = [
  { file: 'letta-10-tools-10-rules.json', after10: 24, after100k: 2_600 },
  { file: 'letta-1000-tools-2000-rules.json', after10: 28_600, after100k: 653_000 },
] as const;

const shortSession = 10;
const longSession = 100_000;

function ratio(long: number, short: number): string {
  return (long / short).toFixed(2);
}

function runSyntheticSection(): void {
  process.stdout.write('\nrule engine: per-call cost (synthetic rule sets; medians with p10–p90 spread)\n');
  for (const [tools, ruleCount] of [
    [10, 10],
    [1_000, 10],
    [1_000, 2_000],
  ] as const) {
    const { rules, catalog } = syntheticRules(tools, ruleCount);
    const cost = engineCost(rules, catalog, shortSession, longSession);
    const [shortCall, longCall] = cost.validateRecord;
    const [shortNarrow, longNarrow] = cost.narrow;
    process.stdout.write(
      [
        `  ${tools} tools, ${rules.rules.length} rules (calls allowed: ${(cost.allowedShare[0] * 100).toFixed(0)}% after 10, ${(cost.allowedShare[1] * 100).toFixed(0)}% after 100,000)`,
        `    validate+record  after 10 calls: ${timingText(shortCall)}   after 100,000: ${timingText(longCall)}   100k/10 ratio ${ratio(longCall.median, shortCall.median)}`,
        `    narrow           after 10 calls: ${timingText(shortNarrow)}   after 100,000: ${timingText(longNarrow)}   100k/10 ratio ${ratio(longNarrow.median, shortNarrow.median)}`,
      ].join('\n') + '\n',
    );
  }
}

async function runLettaSection(): Promise<void> {
  process.stdout.write(
    "\nrule engine: Letta's benchmark rule sets, one agent-loop step (narrow + validate + record); toolrail measured in this run, Letta's figures quoted (Letta 0.16.8 on a 2-core machine, not measured here)\n",
  );
  for (const figure of lettaFigures) {
    let bench;
    try {
      bench = await loadLettaBench(join(lettaBenchDir, figure.file));
    } catch (error) {
      process.stdout.write(
        `  ${figure.file}: skipped (${error instanceof Error ? error.message.split('\n')[0] : String(error)})\n`,
      );
      continue;
    }
    const samples = bench.catalog.length > 100 ? 300 : 3_000;
    const [short, long] = lettaStepCosts(bench, shortSession, longSession, samples);
    process.stdout.write(
      [
        `  ${figure.file}`,
        `    after 10 steps:      toolrail (measured) ${timingText(short)}   Letta (quoted) ${figure.after10} µs, ${(figure.after10 / short.median).toFixed(0)}× toolrail`,
        `    after 100,000 steps: toolrail (measured) ${timingText(long)}   Letta (quoted) ${figure.after100k} µs, ${(figure.after100k / long.median).toFixed(0)}× toolrail`,
        `    100,000/10 ratio: toolrail ${ratio(long.median, short.median)} (measured), Letta ${ratio(figure.after100k, figure.after10)} (quoted)`,
      ].join('\n') + '\n',
    );
  }
}

/** The rule engine's section of `npm run bench`: per-call cost against session length, and Letta's step. */
export async function runEngineBench(): Promise<void> {
  runSyntheticSection();
  await runLettaSection();
}
