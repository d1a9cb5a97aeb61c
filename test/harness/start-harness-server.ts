import type { TestProject } from 'vitest/node';
import { startDevServer } from '../../src/devserver/start-dev-server';
import './provided-context';

/**
 * Starts one dev server for the whole test run, hands its address to the tests through
 * `inject('temporalAddress')`, and returns the teardown that stops it. The server also stops if
 * the test run dies (its supervisor watches this process).
 */
export async function startHarnessServer(project: TestProject, { ui }: { ui: boolean }): Promise<() => Promise<void>> {
  const server = await startDevServer({
    ui,
    onProgress: (line) => process.stderr.write(`[temporal dev server] ${line}\n`),
  });
  const cli = server.cli.kind === 'executable' ? `${server.cli.path} (from ${server.cli.source})` : 'SDK download';
  process.stderr.write(
    `[temporal dev server] running on ${server.address}${server.uiAddress ? `, UI ${server.uiAddress}` : ''}; CLI ${cli}\n`,
  );
  project.provide('temporalAddress', server.address);
  project.provide('temporalNamespace', server.namespace);
  project.provide('temporalUiAddress', server.uiAddress ?? '');
  project.provide('temporalMetricsUrl', server.metricsUrl ?? '');
  project.provide('temporalCliPath', server.cli.kind === 'executable' ? server.cli.path : '');
  return () => server.stop();
}
