/**
 * The benchmark sections, by the name that runs one alone (`npm run bench -- long-session`). Each is
 * loaded when it runs: `npm run bench -- baseline` runs this file over an older tree, which may lack
 * the newer sections.
 */
const sections: Record<string, () => Promise<void>> = {
  engine: async () => (await import('./engine')).runEngineBench(),
  dispatch: async () => (await import('./dispatch')).runDispatchBench(),
  'long-session': async () => (await import('./long-session')).runLongSessionBench(),
  scale: async () => (await import('./scale')).runScaleBench(),
  live: async () => (await import('./live')).runLiveBench(),
  baseline: async () => (await import('./baseline')).runBaselineBench(),
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
