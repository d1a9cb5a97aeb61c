import { parseArgs } from 'node:util';
import { runFuzz } from './run-fuzz';

/** `npm run fuzz -- --seed N --count N`: prints the figures as one JSON line; exit 1 on a failure. */
const { values } = parseArgs({ options: { seed: { type: 'string' }, count: { type: 'string' } } });
const seed = values.seed === undefined ? 42 : Number(values.seed);
const count = values.count === undefined ? 10_000 : Number(values.count);
if (!Number.isInteger(seed) || !Number.isInteger(count) || count < 1) {
  process.stderr.write('fuzz: --seed and --count must be integers (count ≥ 1)\n');
  process.exit(2);
}
const started = performance.now();
const figures = runFuzz({ seed, count });
const wallSeconds = Math.round((performance.now() - started) / 100) / 10;
process.stdout.write(`${JSON.stringify({ ...figures, failure: undefined, wallSeconds })}\n`);
if (figures.failure !== null) {
  process.stderr.write(`${figures.failure}\n`);
  process.exit(1);
}
