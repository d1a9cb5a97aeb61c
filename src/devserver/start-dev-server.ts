import { spawn } from 'node:child_process';
import path from 'node:path';
import { toolrailSearchAttributes } from '../session';
import { findTemporalCli } from './find-temporal-cli';
import type { TemporalCliLocation } from './find-temporal-cli';
import { freePort } from './free-port';
import { searchAttributeFlags } from './search-attribute-flags';
import { waitForServer } from './wait-for-server';

/** Options for {@link startDevServer}. */
export interface StartDevServerOptions {
  /** Frontend gRPC port. Defaults to a free port. */
  port?: number;
  /** Serve the Web UI. Defaults to true. */
  ui?: boolean;
  /** Web UI port. Defaults to a free port. */
  uiPort?: number;
  /**
   * A codec server the Web UI decodes payloads through (`--ui-codec-endpoint`), for sessions whose
   * workers encode with payload codecs. Defaults to none.
   */
  uiCodecEndpoint?: string;
  /** Port of the server's Prometheus `/metrics` endpoint. Defaults to a free port. */
  metricsPort?: number;
  /** SQLite file to persist to. Defaults to in-memory (nothing survives a restart). */
  dbFilename?: string;
  /** Namespace to create besides `default`. Defaults to `default`. */
  namespace?: string;
  /** `--dynamic-config-value KEY=JSON` pairs, e.g. `{ 'limit.historyCount.suggestContinueAsNew': 200 }`. */
  dynamicConfig?: Record<string, string | number | boolean>;
  /** Server log level. Defaults to `error`. */
  logLevel?: 'debug' | 'info' | 'warn' | 'error';
  /** Receives progress lines (finding or building the CLI). */
  onProgress?: (line: string) => void;
  /** Show the server's own banner and logs on this process's stdout/stderr. Defaults to false (errors still show). */
  verbose?: boolean;
  /** An already located CLI (skips the search). */
  cli?: TemporalCliLocation;
}

/** A running dev server. `stop()` is idempotent and waits for the process to exit. */
export interface DevServer {
  /** `host:port` of the frontend, for `Connection.connect({ address })`. */
  readonly address: string;
  readonly namespace: string;
  /** `http://host:port` of the Web UI, when it is served. */
  readonly uiAddress: string | undefined;
  /**
   * `http://host:port/metrics`: the server's Prometheus metrics (e.g. its requests by operation);
   * undefined on the SDK's download.
   */
  readonly metricsUrl: string | undefined;
  /** Where the CLI came from. */
  readonly cli: TemporalCliLocation;
  stop(): Promise<void>;
}

const host = '127.0.0.1';

/**
 * Starts `temporal server start-dev` with toolrail's search attributes registered, under a
 * supervisor that stops the server when this process exits in any way (no orphans), and waits
 * until it answers.
 */
export async function startDevServer(options: StartDevServerOptions = {}): Promise<DevServer> {
  const cli = options.cli ?? (await findTemporalCli(options.onProgress ? { onProgress: options.onProgress } : {}));
  const namespace = options.namespace ?? 'default';
  if (cli.kind === 'sdk-download') return startWithSdkDownload(cli.version, namespace, options);

  const port = options.port ?? (await freePort(host));
  const ui = options.ui ?? true;
  const uiPort = ui ? (options.uiPort ?? (await freePort(host))) : undefined;
  const metricsPort = options.metricsPort ?? (await freePort(host));
  const args = [
    'server',
    'start-dev',
    '--ip',
    host,
    '--port',
    String(port),
    '--namespace',
    namespace,
    '--log-level',
    options.logLevel ?? 'error',
    '--metrics-port',
    String(metricsPort),
    ...(uiPort === undefined ? ['--headless'] : ['--ui-port', String(uiPort), '--ui-ip', host]),
    ...(uiPort !== undefined && options.uiCodecEndpoint ? ['--ui-codec-endpoint', options.uiCodecEndpoint] : []),
    ...(options.dbFilename ? ['--db-filename', options.dbFilename] : []),
    ...searchAttributeFlags(toolrailSearchAttributes),
    ...Object.entries(options.dynamicConfig ?? {}).flatMap(([key, value]) => [
      '--dynamic-config-value',
      `${key}=${JSON.stringify(value)}`,
    ]),
  ];
  const supervisor = spawn(process.execPath, [path.join(__dirname, 'supervise-server.cjs'), cli.path, ...args], {
    stdio: ['pipe', options.verbose ? 'inherit' : 'ignore', 'inherit'],
  });
  let exited = false;
  const exitedPromise = new Promise<void>((resolve) => {
    supervisor.once('exit', () => {
      exited = true;
      resolve();
    });
  });
  const address = `${host}:${port}`;
  const stop = async (): Promise<void> => {
    if (!exited) {
      supervisor.stdin?.end();
      supervisor.kill('SIGTERM');
    }
    await exitedPromise;
  };
  try {
    await waitForServer(address, { isAlive: () => !exited });
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    address,
    namespace,
    uiAddress: uiPort === undefined ? undefined : `http://${host}:${uiPort}`,
    metricsUrl: `http://${host}:${metricsPort}/metrics`,
    cli,
    stop,
  };
}

async function startWithSdkDownload(
  version: string,
  namespace: string,
  options: StartDevServerOptions,
): Promise<DevServer> {
  options.onProgress?.(`no Temporal CLI and no Go here: letting the Temporal SDK download CLI ${version}`);
  // Loaded only here: @temporalio/testing is an optional peer dependency, needed for this fallback alone.
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  const ui = options.ui ?? true;
  const environment = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'cached-download', version },
      namespace,
      ui,
      ...(options.port === undefined ? {} : { port: options.port }),
      ...(options.uiPort === undefined ? {} : { uiPort: options.uiPort }),
      ...(options.dbFilename ? { dbFilename: options.dbFilename } : {}),
      searchAttributes: [...toolrailSearchAttributes],
      extraArgs: [
        ...Object.entries(options.dynamicConfig ?? {}).flatMap(([key, value]) => [
          '--dynamic-config-value',
          `${key}=${JSON.stringify(value)}`,
        ]),
        ...(ui && options.uiCodecEndpoint ? ['--ui-codec-endpoint', options.uiCodecEndpoint] : []),
      ],
    },
  });
  let stopped: Promise<void> | undefined;
  return {
    address: environment.address,
    namespace,
    uiAddress: undefined,
    metricsUrl: undefined,
    cli: { kind: 'sdk-download', version },
    stop: () => (stopped ??= environment.teardown()),
  };
}
