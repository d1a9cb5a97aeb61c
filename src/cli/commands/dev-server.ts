import { parseArgs } from 'node:util';
import { findTemporalCli, startDevServer } from '../../devserver';
import type { CliCommand } from '../cli-command';
import { ExitCode } from '../cli-command';
import { waitForShutdownSignal } from '../wait-for-shutdown-signal';

const usage = `Usage: toolrail dev-server [--port N] [--ui-port N] [--headless] [--ui-codec-endpoint URL] [--db-filename FILE] [--namespace NS]

Starts the Temporal dev server (finding or building the pinned \`temporal\` CLI first) with
toolrail's search attributes registered, and runs until Ctrl-C.
  --port N           frontend gRPC port (default 7233)
  --ui-port N        Web UI port (default 8233)
  --headless         no Web UI
  --ui-codec-endpoint URL
                     a codec server the Web UI decodes payloads through (see examples/payload-codec)
  --db-filename F    persist to this SQLite file (default: in memory)
  --namespace NS     namespace (default: default)
  --provision-only   find or build the CLI, print its path, and exit`;

/** `toolrail dev-server`: the embedded default server, with its Web UI. */
export const devServerCommand: CliCommand = {
  summary: 'start the Temporal dev server with its Web UI (builds the CLI once if needed)',
  async run(argv) {
    const { values } = parseArgs({
      args: [...argv],
      options: {
        port: { type: 'string', default: '7233' },
        'ui-port': { type: 'string', default: '8233' },
        headless: { type: 'boolean', default: false },
        'ui-codec-endpoint': { type: 'string' },
        'db-filename': { type: 'string' },
        namespace: { type: 'string', default: 'default' },
        'provision-only': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    if (values.help) {
      process.stdout.write(usage + '\n');
      return ExitCode.ok;
    }
    const onProgress = (line: string): void => void process.stderr.write(line + '\n');
    if (values['provision-only']) {
      const cli = await findTemporalCli({ onProgress });
      process.stdout.write(
        cli.kind === 'executable' ? `${cli.path} (from ${cli.source})\n` : `SDK download ${cli.version}\n`,
      );
      return ExitCode.ok;
    }
    const server = await startDevServer({
      port: Number(values.port),
      ui: !values.headless,
      uiPort: Number(values['ui-port']),
      namespace: values.namespace,
      ...(values['db-filename'] ? { dbFilename: values['db-filename'] } : {}),
      ...(values['ui-codec-endpoint'] ? { uiCodecEndpoint: values['ui-codec-endpoint'] } : {}),
      onProgress,
    });
    process.stdout.write(`Temporal dev server: ${server.address} (namespace ${server.namespace})\n`);
    if (server.uiAddress) process.stdout.write(`Web UI: ${server.uiAddress}\n`);
    process.stdout.write('Press Ctrl-C to stop.\n');
    await waitForShutdownSignal();
    await server.stop();
    return ExitCode.ok;
  },
};
