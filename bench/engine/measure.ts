/** Median and spread of per-operation times, in microseconds. */
export interface Timing {
  readonly median: number;
  readonly p10: number;
  readonly p90: number;
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

function summary(times: number[]): Timing {
  times.sort((a, b) => a - b);
  return { median: quantile(times, 0.5), p10: quantile(times, 0.1), p90: quantile(times, 0.9) };
}

/**
 * Times two operations in alternating batches of `batch` calls (so load on the machine hits both alike;
 * the batch hides the timer's own cost) and returns each one's median and 10th/90th percentile per
 * call, in microseconds.
 */
export function measurePair(
  first: (i: number) => void,
  second: (i: number) => void,
  options: { samples: number; batch: number },
): [Timing, Timing] {
  const times: [number[], number[]] = [[], []];
  const operations = [first, second] as const;
  let i = 0;
  for (let warm = 0; warm < 200; warm++) {
    first(warm);
    second(warm);
  }
  for (let sample = 0; sample < options.samples; sample++) {
    for (const which of [0, 1] as const) {
      const operation = operations[which];
      const start = process.hrtime.bigint();
      for (let n = 0; n < options.batch; n++) operation(i + n);
      times[which].push(Number(process.hrtime.bigint() - start) / 1000 / options.batch);
    }
    i += options.batch;
  }
  return [summary(times[0]), summary(times[1])];
}

/** Per-call times of single calls, summarised; for operations too slow to batch. */
export function summarize(times: number[]): Timing {
  return summary(times);
}

/** `12.3 µs (p10 11.9, p90 14.0)`. */
export function timingText(timing: Timing): string {
  const digits = (value: number) =>
    value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
  return `${digits(timing.median)} µs (p10 ${digits(timing.p10)}, p90 ${digits(timing.p90)})`;
}
