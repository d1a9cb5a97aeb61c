import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { toolrailCacheDir } from '../src/devserver/cache-dir';
import type { BenchFigures } from './bench-figures';

/**
 * The last main before the model layer moved onto the AI SDK's provider interface (with the content
 * store's durability and the live feed): what `npm run bench -- baseline` compares this tree with
 * unless `TOOLRAIL_BENCH_BASELINE` names another commit.
 */
const defaultBaseline = 'ef1d6e78633be467e16fb944e77bfdf4befa93f1';

/** The sections run on both trees. */
const comparedSections = ['dispatch', 'long-session'] as const;

/**
 * The bench files the baseline runs from this tree (the entry and the sections that record their
 * figures); everything else, the measured code included, is the baseline's own.
 */
const overlaidFiles = ['main.ts', 'baseline.ts', 'bench-figures.ts', 'dispatch.ts', 'long-session.ts'];

/** One tree the sections run on. */
interface Side {
  label: string;
  directory: string;
}

type DispatchFigures = Extract<BenchFigures, { section: 'dispatch' }>;
type LongSessionFigures = Extract<BenchFigures, { section: 'long-session' }>;

/**
 * `npm run bench -- baseline`: the dispatch and long-session sections on this tree and on a baseline
 * commit (`TOOLRAIL_BENCH_BASELINE`, a git ref; default: the last main before the AI SDK model
 * layer), one after the other in one run, `TOOLRAIL_BENCH_ROUNDS` times (default 1; the order
 * alternates). The baseline is checked out of this repository into the toolrail cache and installed
 * with `npm ci` once; it runs this tree's bench entry files over its own sources. The long sessions
 * run without a feed subscriber (`TOOLRAIL_BENCH_FEED=off`). Prints each run's own tables, then this
 * tree's figures over the baseline's (medians over the rounds).
 */
export async function runBaselineBench(): Promise<void> {
  const here = process.cwd();
  const commit = git(here, [
    'rev-parse',
    '--verify',
    `${process.env['TOOLRAIL_BENCH_BASELINE'] ?? defaultBaseline}^{commit}`,
  ]);
  const baseline: Side = { label: `baseline ${commit.slice(0, 7)}`, directory: prepareBaseline(here, commit) };
  const current: Side = { label: 'this tree', directory: here };
  const rounds = Number(process.env['TOOLRAIL_BENCH_ROUNDS'] ?? 1);
  const figures = new Map<Side, BenchFigures[][]>([
    [baseline, []],
    [current, []],
  ]);
  for (let round = 0; round < rounds; round += 1) {
    for (const side of round % 2 === 0 ? [baseline, current] : [current, baseline]) {
      process.stdout.write(`\n=== ${side.label}, round ${round + 1} of ${rounds} ===\n`);
      figures.get(side)?.push(await runSections(side));
    }
  }
  printComparison(baseline.label, figures.get(baseline) ?? [], figures.get(current) ?? []);
}

/** The baseline's tree with its dependencies installed, in the toolrail cache (made once per commit). */
function prepareBaseline(here: string, commit: string): string {
  const directory = path.join(toolrailCacheDir(), 'bench-baseline', commit);
  if (!existsSync(path.join(directory, 'node_modules', '.package-lock.json'))) {
    process.stdout.write(`checking out ${commit} and installing its dependencies (once) in ${directory}\n`);
    rmSync(directory, { recursive: true, force: true });
    mkdirSync(directory, { recursive: true });
    const scratch = mkdtempSync(path.join(os.tmpdir(), 'toolrail-bench-baseline-'));
    try {
      const archive = path.join(scratch, 'tree.tar');
      git(here, ['archive', '--format=tar', '-o', archive, commit]);
      execFileSync('tar', ['-xf', archive, '-C', directory]);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
    execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: directory, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  // The baseline runs this tree's bench entry files (which record their figures), on its own sources.
  for (const file of overlaidFiles) cpSync(path.join(here, 'bench', file), path.join(directory, 'bench', file));
  return directory;
}

/** Runs the compared sections on one tree in a process of their own; returns what they recorded. */
async function runSections(side: Side): Promise<BenchFigures[]> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'toolrail-bench-figures-'));
  const file = path.join(scratch, 'figures.jsonl');
  try {
    const exitCode = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [path.join(side.directory, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'bench/main.ts', ...comparedSections],
        {
          cwd: side.directory,
          env: { ...process.env, TOOLRAIL_BENCH_FIGURES: file, TOOLRAIL_BENCH_FEED: 'off' },
          stdio: 'inherit',
        },
      );
      child.on('error', reject);
      child.on('exit', resolve);
    });
    if (exitCode !== 0) throw new Error(`the bench on ${side.label} exited with ${String(exitCode)}`);
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as BenchFigures);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function printComparison(baselineLabel: string, baseline: BenchFigures[][], current: BenchFigures[][]): void {
  const ratio = (now: number, before: number): string => (before > 0 ? `${(now / before).toFixed(2)}×` : '–');
  const dispatchKey = (figure: DispatchFigures): string =>
    `${figure.configuration}|${figure.scenario}|${figure.variant}`;
  const baseDispatch = medians(baseline, 'dispatch', dispatchKey, (figure) => figure.medianMs);
  const nowDispatch = medians(current, 'dispatch', dispatchKey, (figure) => figure.medianMs);
  process.stdout.write(`\nthis tree vs ${baselineLabel}, side by side in this run (medians over the rounds)\n`);
  process.stdout.write('\n  dispatch: wall time per session (ms), and toolrail ÷ plain on each tree\n');
  const dispatchRows = [...nowDispatch.keys()]
    .filter((key) => !key.endsWith('|plain') && !key.endsWith('|plain+model'))
    .map((key) => {
      const [configuration = '', scenario = '', variant = ''] = key.split('|');
      const plainKey = `${configuration}|${scenario}|plain`;
      const before = baseDispatch.get(key) ?? Number.NaN;
      const now = nowDispatch.get(key) ?? Number.NaN;
      return [
        configuration.startsWith('eager') ? 'eager' : 'defaults',
        scenario,
        variant,
        before.toFixed(0),
        now.toFixed(0),
        ratio(now, before),
        ratio(before, baseDispatch.get(plainKey) ?? Number.NaN),
        ratio(now, nowDispatch.get(plainKey) ?? Number.NaN),
      ];
    });
  process.stdout.write(
    table([
      [
        'server',
        'scenario',
        'variant',
        'baseline',
        'this tree',
        'this ÷ baseline',
        '÷ plain (baseline)',
        '÷ plain (this)',
      ],
      ...dispatchRows,
    ]),
  );

  process.stdout.write('\n  long sessions: wall time, total history, and per call in the last full run\n');
  const workloadKey = (figure: LongSessionFigures): string => figure.workload;
  const metrics: [string, (figure: LongSessionFigures) => number][] = [
    ['wall', (figure) => figure.wallMs],
    ['history', (figure) => figure.totalHistoryBytes],
    ['history/call', (figure) => figure.late.history],
    ['store/call', (figure) => figure.late.store],
    ['CPU/call', (figure) => figure.late.cpuMicros],
  ];
  const outcomes = (rounds: BenchFigures[][], workload: string): string =>
    [
      ...new Set(
        rounds.flatMap((figures) =>
          figures.flatMap((figure) =>
            figure.section === 'long-session' && figure.workload === workload ? [figure.outcome] : [],
          ),
        ),
      ),
    ].join(' / ');
  const byMetric = metrics.map(
    ([, value]) =>
      [
        medians(baseline, 'long-session', workloadKey, value),
        medians(current, 'long-session', workloadKey, value),
      ] as const,
  );
  const workloads = [...(byMetric[0]?.[1].keys() ?? [])];
  process.stdout.write(
    table([
      ['workload', 'outcome (baseline)', 'outcome (this)', ...metrics.map(([name]) => `${name} this ÷ baseline`)],
      ...workloads.map((workload) => [
        workload,
        outcomes(baseline, workload),
        outcomes(current, workload),
        ...byMetric.map(([before, now]) => ratio(now.get(workload) ?? Number.NaN, before.get(workload) ?? Number.NaN)),
      ]),
    ]),
  );
}

/** The median of `value` per key over the rounds, for one section's figures. */
function medians<S extends BenchFigures['section']>(
  rounds: BenchFigures[][],
  section: S,
  key: (figure: Extract<BenchFigures, { section: S }>) => string,
  value: (figure: Extract<BenchFigures, { section: S }>) => number,
): Map<string, number> {
  const values = new Map<string, number[]>();
  for (const figures of rounds)
    for (const figure of figures) {
      if (figure.section !== section) continue;
      const typed = figure as Extract<BenchFigures, { section: S }>;
      values.set(key(typed), [...(values.get(key(typed)) ?? []), value(typed)]);
    }
  return new Map(
    [...values].map(([name, list]) => {
      const sorted = [...list].sort((a, b) => a - b);
      return [name, sorted[Math.floor(sorted.length / 2)] ?? Number.NaN];
    }),
  );
}

function git(cwd: string, args: string[]): string {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch (error) {
    throw new Error(
      `npm run bench -- baseline needs this repository's git history (git ${args.join(' ')} failed: ${error instanceof Error ? error.message : String(error)})`,
    );
  }
}

function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return (
    rows
      .map((row) => `  ${row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ')}`.trimEnd())
      .join('\n') + '\n'
  );
}
