import { appendFileSync } from 'node:fs';

/** One measured figure set of a bench section, as `npm run bench -- baseline` reads it back. */
export type BenchFigures =
  | {
      section: 'dispatch';
      /** The server configuration's label. */
      configuration: string;
      scenario: string;
      variant: string;
      /** Median wall time of the variant's runs, in milliseconds. */
      medianMs: number;
      /** History events of the median run. */
      events: number;
    }
  | {
      section: 'long-session';
      workload: string;
      outcome: string;
      runs: number;
      totalHistoryBytes: number;
      wallMs: number;
      /** Per call in the last run that continued as new: history bytes, store bytes, worker CPU (µs). */
      late: { history: number; store: number; cpuMicros: number };
    };

/**
 * Appends `figures` as one JSON line to the file `TOOLRAIL_BENCH_FIGURES` names (the baseline
 * section sets it for the runs it compares); does nothing when it is unset.
 */
export function recordFigures(figures: BenchFigures): void {
  const file = process.env['TOOLRAIL_BENCH_FIGURES'];
  if (file) appendFileSync(file, `${JSON.stringify(figures)}\n`);
}
