import { DefaultLogger, Runtime } from '@temporalio/worker';
import { measureOnServer } from './dispatch/measure-on-server';
import { printDispatchResults } from './dispatch/print-dispatch-results';
import { recordFigures } from './bench-figures';

/** Timed rounds per scenario, after one warm-up run of each variant. */
const iterations = Number(process.env['TOOLRAIL_BENCH_ITERATIONS'] ?? 5);

/** The server configurations compared: the dev server's defaults, and eager activity dispatch. */
const serverConfigurations = [
  { label: 'dev server defaults', dynamicConfig: {} },
  {
    label: 'eager activity execution on (system.enableActivityEagerExecution=true)',
    dynamicConfig: { 'system.enableActivityEagerExecution': true },
  },
] as const;

/**
 * `npm run bench`, dispatch section: toolrail's overhead per turn. Each scenario runs side by side as
 * a plain workflow running the same activities with `Promise.all` (`plain`), the same plus a no-op
 * stand-in for the model call before each turn and at the end (`plain+model`, the activities a
 * session runs), a toolrail session (`toolrail`: model activity, rules, dispatch, tool activities),
 * and a session whose tools run as local activities (`toolrail, local tools`). Runs on dev servers of
 * its own, once with the server defaults and once with eager activity execution.
 */
export async function runDispatchBench(): Promise<void> {
  installQuietRuntime();
  for (const configuration of serverConfigurations) {
    process.stdout.write(
      `\ndispatch: toolrail sessions vs plain workflows, local dev server, ${configuration.label}\n`,
    );
    const results = await measureOnServer({ dynamicConfig: configuration.dynamicConfig, iterations });
    printDispatchResults(results, iterations);
    for (const [key, measured] of results) {
      const [scenario = key, variant = ''] = key.split('/');
      recordFigures({
        section: 'dispatch',
        configuration: configuration.label,
        scenario,
        variant,
        medianMs: measured.medianMs,
        events: measured.timeline.events,
      });
    }
  }
}

function installQuietRuntime(): void {
  try {
    Runtime.install({ logger: new DefaultLogger('WARN') });
  } catch {
    // Another bench section installed the runtime already.
  }
}
