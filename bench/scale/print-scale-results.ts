import type { ScalePhase, ScaleRound, ScaleVariant } from './scale-types';
import type { WorkflowTaskTimeout } from './scale-histories';

/** The median of `values` (NaN when empty). */
function median(values: readonly number[]): number {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The `p`-th percentile of `values` (nearest rank). */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

/** One figure of a round, and how to show it. */
interface Row {
  label: string;
  of: (round: ScaleRound) => number;
  format: (value: number) => string;
  /** Sum the rounds instead of taking their median. */
  sum?: boolean;
}

const ms = (value: number): string => `${value.toFixed(value < 10 ? 2 : 1)} ms`;
const kb = (value: number): string => `${(value / 1000).toFixed(2)} KB`;
const mb = (value: number): string => `${(value / 1e6).toFixed(0)} MB`;
const count = (value: number): string => value.toFixed(value < 100 ? 1 : 0);

const workerCpu: Row = { label: 'worker CPU per turn', of: (round) => round.workerCpuMs / round.turns, format: ms };
const serverCpu: Row = {
  label: 'server CPU per turn',
  of: (round) => (round.serverCpuMs ?? Number.NaN) / round.turns,
  format: ms,
};
const clientCpu: Row = { label: 'client CPU per turn', of: (round) => round.clientCpuMs / round.turns, format: ms };
/** What a turn costs the machine the server, the worker and the client share: what limits turns per second there. */
const allCpu: Row = {
  label: 'CPU per turn, server + worker + client',
  of: (round) => ((round.serverCpuMs ?? Number.NaN) + round.workerCpuMs + round.clientCpuMs) / round.turns,
  format: ms,
};
const perTurnRows: Row[] = [
  workerCpu,
  serverCpu,
  clientCpu,
  allCpu,
  { label: 'history bytes per turn', of: (round) => round.history.bytes / round.turns, format: kb },
  { label: 'history events per turn', of: (round) => round.history.events / round.turns, format: count },
  { label: 'wall per turn', of: (round) => round.wallMs / round.turns, format: ms },
];

const turnsPerSecond: Row = {
  label: 'turns per second',
  of: (round) => round.turns / (round.wallMs / 1000),
  format: count,
};
const latencyP99: Row = {
  label: 'turn latency p99',
  of: (round) => percentile(round.history.turnLatencies, 99),
  format: ms,
};
const latencyP50: Row = {
  label: 'turn latency p50',
  of: (round) => percentile(round.history.turnLatencies, 50),
  format: ms,
};
const timeouts: Row = {
  label: 'workflow-task timeouts',
  of: (round) => round.history.workflowTaskTimeouts.length,
  format: (value) => value.toFixed(0),
  sum: true,
};
const concurrentRows: Row[] = [
  turnsPerSecond,
  latencyP99,
  latencyP50,
  {
    label: 'workflow-task schedule-to-start p99',
    of: (round) => percentile(round.history.workflowTaskWaits, 99),
    format: ms,
  },
  timeouts,
  ...perTurnRows.slice(0, 6),
  { label: 'worker RSS peak', of: (round) => round.workerRssPeak, format: mb },
];
/** The figures each round's own line gives. */
const roundRows: Row[] = [turnsPerSecond, latencyP99, latencyP50, timeouts, workerCpu, serverCpu, allCpu];

/**
 * The worker's CPU per turn by what its threads do (medians over a variant's rounds, busiest first),
 * as `worker CPU per turn by thread, toolrail: main 4.00 ms, workflow 4.30 ms, …`; none where
 * `/proc` was not readable.
 */
export function threadLine(variant: ScaleVariant, rounds: readonly ScaleRound[]): string | undefined {
  const perTurn = rounds.flatMap((round) =>
    round.workerThreadCpuMs ? [{ threads: round.workerThreadCpuMs, turns: round.turns }] : [],
  );
  if (perTurn.length === 0) return undefined;
  const kinds = new Set(perTurn.flatMap(({ threads }) => [...threads.keys()]));
  const medians = [...kinds]
    .map((kind) => ({ kind, ms: median(perTurn.map(({ threads, turns }) => (threads.get(kind) ?? 0) / turns)) }))
    .filter(({ ms: value }) => value >= 0.005)
    .sort((a, b) => b.ms - a.ms);
  return `worker CPU per turn by thread, ${variant}: ${medians.map(({ kind, ms: value }) => `${kind} ${ms(value)}`).join(', ')}`;
}

/**
 * One line per round, in the order run, with each variant's own figures in the order it ran: how
 * far the rounds spread, and whether a variant's place in the order (or how many rounds its worker
 * ran before) moves them. `rows`: the figures each gives (by default those of many sessions at once).
 */
export function roundLines(rounds: readonly (readonly ScaleRound[])[], rows: readonly Row[] = roundRows): string[] {
  return rounds.map(
    (measured, index) =>
      `round ${index + 1}: ${measured
        .map(
          (round) => `${round.variant}: ${rows.map((row) => `${row.label} ${row.format(row.of(round))}`).join(', ')}`,
        )
        .join('; then ')}`,
  );
}

/**
 * Prints one phase as a Markdown table: per variant the median over the rounds (sums where said),
 * and each as a ratio to bare (also to bare by reference, and to toolrail at the baseline checkout, when
 * they ran); then the worker's RSS peak
 * round by round, and for one session, where a turn's history bytes go.
 */
export function printPhase(phase: ScalePhase, rounds: readonly (readonly ScaleRound[])[]): void {
  const variants = phase.variants;
  const byVariant = (variant: ScaleVariant): ScaleRound[] =>
    rounds.flatMap((measured) => measured.filter((round) => round.variant === variant));
  const figure = (row: Row, variant: ScaleVariant): number => {
    const values = byVariant(variant).map(row.of);
    return row.sum ? values.reduce((sum, value) => sum + value, 0) : median(values);
  };
  const ratio = (value: number, base: number): string =>
    Number.isFinite(value) && Number.isFinite(base) && base > 0 ? `${(value / base).toFixed(2)}×` : '–';
  const hasReference = variants.includes('bare by reference');
  const hasBaseline = variants.includes('toolrail baseline');
  const rows = phase.sessions === 1 ? perTurnRows : concurrentRows;
  const ratioHeads = [
    'toolrail / bare',
    ...(hasReference ? ['toolrail / bare by reference'] : []),
    ...(hasBaseline ? ['toolrail / baseline'] : []),
  ];
  const lines = [
    `\n${phase.title}: medians of ${phase.rounds} round${phase.rounds === 1 ? '' : 's'}`,
    `| | ${[...variants, ...ratioHeads].join(' | ')} |`,
    `|---|${[...variants, ...ratioHeads].map(() => '---|').join('')}`,
    ...rows.map((row) => {
      const values = variants.map((variant) => row.format(figure(row, variant)));
      const toolrail = figure(row, 'toolrail');
      const ratios = [
        ratio(toolrail, figure(row, 'bare')),
        ...(hasReference ? [ratio(toolrail, figure(row, 'bare by reference'))] : []),
        ...(hasBaseline ? [ratio(toolrail, figure(row, 'toolrail baseline'))] : []),
      ];
      return `| ${row.label}${row.sum ? ' (all rounds)' : ''} | ${[...values, ...ratios].join(' | ')} |`;
    }),
  ];
  for (const variant of variants) {
    const threads = threadLine(variant, byVariant(variant));
    if (threads) lines.push(threads);
  }
  if (phase.sessions > 1) {
    lines.push(...roundLines(rounds));
    for (const variant of variants) {
      const peaks = byVariant(variant).map((round) => mb(round.workerRssPeak));
      const after = byVariant(variant).map((round) => mb(round.workerRssAfter));
      lines.push(
        `worker RSS, round by round, ${variant}: peak ${peaks.join(' → ')}; after the round ${after.join(' → ')}`,
      );
      const timeouts = byVariant(variant).flatMap((round) => round.history.workflowTaskTimeouts);
      const kinds = new Map<string, number>();
      for (const { kind } of timeouts) kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      if (kinds.size > 0)
        lines.push(
          `workflow-task timeouts, ${variant}: ${[...kinds].map(([kind, count]) => `${count} ${kind}`).join(', ')}`,
        );
      for (const timeout of timeouts) lines.push(`  ${timeoutLine(timeout)}`);
    }
  } else {
    lines.push(...roundLines(rounds, [workerCpu, serverCpu]));
    lines.push(...historyBreakdown(rounds[0] ?? [], variants));
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

/**
 * One timed-out workflow task, with its times as the server's log prints them (UTC), so the log's
 * lines about that session at those times can be found: `scale-7002: start-to-close on the sticky
 * queue, scheduled 13:06:09.104, started 13:06:09.512, timed out 13:06:19.513`.
 */
export function timeoutLine({ workflowId, kind, scheduledAt, startedAt, timedOutAt }: WorkflowTaskTimeout): string {
  const clock = (at: number | undefined): string => (at === undefined ? '–' : new Date(at).toISOString().slice(11, 23));
  return `${workflowId}: ${kind}, scheduled ${clock(scheduledAt)}, started ${clock(startedAt)}, timed out ${clock(timedOutAt)}`;
}

/** Where a turn's history bytes go, by event type (and activity), for each variant of one round. */
function historyBreakdown(measured: readonly ScaleRound[], variants: readonly ScaleVariant[]): string[] {
  const kinds = new Set(measured.flatMap((round) => [...round.history.bytesByKind.keys()]));
  const perTurn = (round: ScaleRound | undefined, kind: string): string => {
    const counted = round?.history.bytesByKind.get(kind);
    return counted && round
      ? `${(counted.bytes / round.turns).toFixed(0)} B (${(counted.events / round.turns).toFixed(2)})`
      : '–';
  };
  const sorted = [...kinds].sort((a, b) => a.localeCompare(b));
  const roundOf = (variant: ScaleVariant): ScaleRound | undefined =>
    measured.find((round) => round.variant === variant);
  return [
    'history per turn by event, bytes (events):',
    `| event | ${variants.join(' | ')} |`,
    `|---|${variants.map(() => '---|').join('')}`,
    ...sorted.map((kind) => `| ${kind} | ${variants.map((variant) => perTurn(roundOf(variant), kind)).join(' | ')} |`),
  ];
}
