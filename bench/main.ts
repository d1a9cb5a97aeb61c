import { runBaselineBench } from './baseline';
import { runDispatchBench } from './dispatch';
import { runEngineBench } from './engine';
import { runLiveBench } from './live';
import { runLongSessionBench } from './long-session';
import { runScaleBench } from './scale';

/** The benchmark sections, by the name that runs one alone (`npm run bench -- long-session`). */
const sections: Record<string, () => Promise<void>> = {
  engine: runEngineBench,
  dispatch: runDispatchBench,
  'long-session': runLongSessionBench,
  scale: runScaleBench,
  live: runLiveBench,
  baseline: runBaselineBench,
};

/** `npm run bench`: every benchmark section in turn, or only those named on the command line. */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  // `--quick`: shorter workloads where a section has them (the same as TOOLRAIL_BENCH_QUICK=1).
  if (args.includes('--quick')) process.env['TOOLRAIL_BENCH_QUICK'] = '1';
  const named = args.filter((arg) => arg !== '--quick');
  const unknown = named.filter((name) => !(name in sections));
  if (unknown.length > 0)
    throw new Error(`unknown bench section ${unknown.join(', ')}; sections: ${Object.keys(sections).join(', ')}`);
  for (const [name, run] of Object.entries(sections)) if (named.length === 0 || named.includes(name)) await run();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
