import { runDispatchBench } from './dispatch';
import { runEngineBench } from './engine';

/** `npm run bench`: every benchmark section, in turn. */
async function main(): Promise<void> {
  await runEngineBench();
  await runDispatchBench();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
