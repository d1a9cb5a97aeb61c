import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import {
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findTemporalCli } from '../../../src/devserver/find-temporal-cli';
import { isPortFree } from '../../../src/devserver/free-port';
import { waitForServer } from '../../../src/devserver/wait-for-server';
import { startPostgres } from '../start-postgres';
import type { TestPostgres } from '../start-postgres';
import { readStackDefinition, repoRoot } from './stack-definition';
import type { ComposeService, StackDefinition } from './stack-definition';
import { findTemporalServerBinaries } from './temporal-server-binaries';

/** The supervisor that stops a process when the test run exits in any way. */
const supervisor = path.join(repoRoot, 'src', 'devserver', 'supervise-server.cjs');

/** The temporalio/server image's working directory: its relative DYNAMIC_CONFIG_FILE_PATH starts there. */
const serverImageWorkdir = '/etc/temporal';

/**
 * docker-compose.yml's stack on this machine: the same versions, job scripts, environment and
 * commands, with the compose network mapped onto the loopback interface (the `postgresql` and
 * `temporal` hosts become 127.0.0.1 and their ports free ones) and the image's files laid out in a
 * directory per worker (a container's filesystem).
 */
export interface ProductionStack {
  readonly definition: StackDefinition;
  /** `host:port` of the Temporal frontend. */
  readonly temporalAddress: string;
  readonly namespace: string;
  readonly taskQueue: string;
  /** The workers' content store (`postgres://…`). */
  readonly contentStoreUrl: string;
  /** The version PostgreSQL reports (`15.18`). */
  readonly postgresVersion: string;
  /** The image's files as the build stage leaves them: package.json, lock file, node_modules, dist, bin. */
  readonly imageDirectory: string;
  /** The environment compose gives `service`, on this machine's network. */
  environmentOf(service: string): Record<string, string>;
  /**
   * Runs a one-shot job of the compose file (its entrypoint and command) and resolves with its
   * output; rejects with it when the job fails. `overrides` change its environment.
   */
  runJob(service: string, overrides?: Record<string, string>): Promise<string>;
  /**
   * Starts a worker as compose's `worker` service runs it (the image's entrypoint, the service's
   * command and environment) in its own copy of the image directory, with `module` (a path inside
   * that copy) in place of the command's `--module` file. Resolves once it says it serves.
   */
  startWorker(name: string, module: string): Promise<StackWorker>;
  /** Stops the Temporal server (SIGTERM) and starts it again on the same ports. */
  restartTemporal(): Promise<void>;
  /** Stops PostgreSQL (a fast shutdown) and starts it again. */
  restartPostgres(): Promise<void>;
  /**
   * The pids of the Temporal server's and PostgreSQL's supervisors, each with its server's
   * processes below it (for measuring what the stack's servers cost).
   */
  serverProcessIds(): number[];
  /** Stops every process the stack started and removes its files. */
  stop(): Promise<void>;
}

/** A worker process of the stack. */
export interface StackWorker {
  readonly name: string;
  /** Its copy of the image directory (its working directory). */
  readonly appDirectory: string;
  /** The worker process's pid (its health file's). */
  readonly pid: number;
  readonly output: () => string;
  /** SIGKILLs the worker process and waits for it to be gone. */
  kill(): Promise<void>;
  /** SIGTERM (a graceful shutdown), and waits for it to exit. */
  stop(): Promise<void>;
}

/** Options of {@link startProductionStack}. */
export interface StartStackOptions {
  onProgress?: (line: string) => void;
}

/**
 * Starts PostgreSQL, runs compose's schema and content-store jobs, starts the Temporal server built
 * from its Go module at the compose file's version, runs the namespace job, and builds the image's
 * files. Stops whatever it started when a step fails.
 */
export async function startProductionStack(options: StartStackOptions = {}): Promise<ProductionStack> {
  const progress = options.onProgress ?? (() => undefined);
  const definition = readStackDefinition();
  const service = (name: string): ComposeService => {
    const found = definition.services[name];
    if (!found) throw new Error(`docker-compose.yml has no service ${name}`);
    return found;
  };
  const workDirectory = mkdtempSync(path.join(os.tmpdir(), 'toolrail-stack-'));
  const processes = new Set<ChildProcess>();
  const cleanups: (() => Promise<void>)[] = [
    () => Promise.resolve(rmSync(workDirectory, { recursive: true, force: true })),
  ];
  const stop = async (): Promise<void> => {
    for (const child of processes) await stopProcess(child);
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  };

  try {
    const version = definition.env.TEMPORAL_VERSION ?? '';
    if (definition.env.TEMPORAL_ADMINTOOLS_VERSION !== version) {
      throw new Error('.env.example: TEMPORAL_VERSION and TEMPORAL_ADMINTOOLS_VERSION differ');
    }
    const binaries = await findTemporalServerBinaries(version, { onProgress: progress });
    const cli = await findTemporalCli({ onProgress: progress, allowSdkDownload: false });
    if (cli.kind !== 'executable') throw new Error('the temporal CLI is needed for the namespace job');

    progress('starting PostgreSQL');
    const postgres: TestPostgres = await startPostgres({
      superuser: definition.env.POSTGRES_USER ?? 'temporal',
      password: definition.env.POSTGRES_PASSWORD ?? '',
    });
    cleanups.push(() => postgres.stop());
    // The frontend's port is chosen as the server first starts (see startServer).
    const ports = { postgresql: postgres.port, temporal: 0 };
    const environmentOf = (name: string): Record<string, string> => onLoopback(service(name).environment ?? {}, ports);
    /** The jobs' PATH: the admin-tools image's programs (temporal-sql-tool, temporal) and psql. */
    const jobPath = [binaries.directory, path.dirname(cli.path), postgres.bin, process.env.PATH ?? ''].join(
      path.delimiter,
    );
    const runJob = async (name: string, overrides: Record<string, string> = {}): Promise<string> => {
      const job = service(name);
      const [file, ...args] = [...(job.entrypoint ?? []), ...(job.command ?? [])].map((word) => hostPath(job, word));
      if (!file) throw new Error(`${name} has no entrypoint or command`);
      return runToEnd(file, args, { ...environmentOf(name), ...overrides, PATH: jobPath, HOME: workDirectory });
    };

    progress('running the schema and content-store jobs');
    await runJob('temporal-admin-tools');
    await runJob('content-store-setup');

    progress(`starting the Temporal server v${version}`);
    const serverDirectory = path.join(workDirectory, 'temporal-server');
    const temporal = service('temporal');
    for (const volume of temporal.volumes ?? []) {
      const [source = '', target = ''] = volume.split(':');
      const mountPoint = path.join(serverDirectory, path.posix.relative(serverImageWorkdir, target));
      mkdirSync(path.dirname(mountPoint), { recursive: true });
      symlinkSync(path.resolve(repoRoot, source), mountPoint);
    }
    const serverLog = path.join(workDirectory, 'temporal-server.log');
    let server: ChildProcess | undefined;
    let serverPorts: Record<string, string> = {};
    /**
     * Starts the server (the image's entrypoint, `temporal-server start`, configured from the
     * environment). Its services' ports are free ones here, chosen for its first start and kept for
     * restarts (the image keeps their defaults). A port found free can be taken by another process
     * before the server binds it: a first start that fails on a taken port chooses them again.
     */
    const startServer = async (): Promise<void> => {
      const firstStart = server === undefined;
      for (let attempt = 1; ; attempt += 1) {
        if (firstStart) serverPorts = await chooseServerPorts();
        ports.temporal = Number(serverPorts.FRONTEND_GRPC_PORT);
        const logStart = existsSync(serverLog) ? statSync(serverLog).size : 0;
        const logFd = openSync(serverLog, 'a');
        const child = spawn(process.execPath, [supervisor, binaries.server, 'start'], {
          cwd: serverDirectory,
          env: { ...environmentOf('temporal'), ...serverPorts, PATH: process.env.PATH ?? '' },
          stdio: ['pipe', logFd, logFd],
        });
        closeSync(logFd);
        processes.add(child);
        server = child;
        const exited = (): boolean => child.exitCode !== null || child.signalCode !== null;
        try {
          await waitForServer(`127.0.0.1:${ports.temporal}`, { timeoutMs: 120_000, isAlive: () => !exited() });
          return;
        } catch (error) {
          await stopProcess(child);
          processes.delete(child);
          const log = readFileSync(serverLog).subarray(logStart).toString('utf8');
          if (firstStart && attempt < 5 && log.includes('address already in use')) {
            progress(`a port of the Temporal server was taken as it started (attempt ${attempt}): choosing others`);
            continue;
          }
          throw new Error(`${String(error)}\n${tail(log)}`);
        }
      }
    };
    await startServer();
    const temporalAddress = `127.0.0.1:${ports.temporal}`;

    progress('running the namespace job');
    await runJob('temporal-create-namespace');

    progress('building the image files');
    const imageDirectory = path.join(workDirectory, 'image');
    await buildImageDirectory(definition, imageDirectory);

    const workerEnvironment: Record<string, string> = {
      ...definition.image.env,
      ...environmentOf('worker'),
      PATH: process.env.PATH ?? '',
      HOME: workDirectory,
    };
    const startWorker = async (name: string, module: string): Promise<StackWorker> => {
      const appDirectory = path.join(workDirectory, 'workers', name);
      cpSync(imageDirectory, appDirectory, { recursive: true, verbatimSymlinks: true });
      const [node, ...entrypoint] = definition.image.entrypoint;
      if (node !== 'node') throw new Error(`the image's entrypoint runs ${String(node)}, not node`);
      const command = [...entrypoint, ...withModule(service('worker').command ?? [], module)];
      const child = spawn(process.execPath, [supervisor, process.execPath, ...command], {
        cwd: appDirectory,
        env: workerEnvironment,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      processes.add(child);
      let output = '';
      child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      await new Promise<void>((resolve, reject) => {
        const onData = (): void => {
          if (output.includes('worker: ')) resolve();
        };
        child.stdout?.on('data', onData);
        child.once('exit', (code, signal) =>
          reject(new Error(`worker ${name} exited (${String(code ?? signal)}) before it served:\n${output}`)),
        );
      });
      const healthFile = path.resolve(appDirectory, workerEnvironment.TOOLRAIL_WORKER_HEALTH_FILE ?? '');
      const pid = (JSON.parse(readFileSync(healthFile, 'utf8')) as { pid: number }).pid;
      return {
        name,
        appDirectory,
        pid,
        output: () => output,
        kill: async () => {
          if (child.exitCode === null && child.signalCode === null) {
            const exited = once(child, 'exit');
            process.kill(pid, 'SIGKILL');
            await exited;
          }
        },
        stop: () => stopProcess(child),
      };
    };

    return {
      definition,
      temporalAddress,
      namespace: environmentOf('worker').TEMPORAL_NAMESPACE ?? 'default',
      taskQueue: environmentOf('worker').TOOLRAIL_TASK_QUEUE ?? 'toolrail',
      contentStoreUrl: environmentOf('worker').TOOLRAIL_CONTENT_STORE ?? '',
      postgresVersion:
        /\(PostgreSQL\) (\S+)/.exec(await runToEnd(path.join(postgres.bin, 'postgres'), ['--version'], {}))?.[1] ?? '',
      imageDirectory,
      environmentOf,
      runJob,
      startWorker,
      restartTemporal: async () => {
        const stoppedAt = Date.now();
        if (server) {
          await stopProcess(server);
          processes.delete(server);
        }
        await startServer();
        progress(`the Temporal server was down ${Date.now() - stoppedAt} ms`);
      },
      restartPostgres: async () => {
        const stoppedAt = Date.now();
        await postgres.restart();
        progress(`PostgreSQL was down ${Date.now() - stoppedAt} ms`);
      },
      serverProcessIds: () => [server?.pid, postgres.pid()].filter((pid) => pid !== undefined),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The compose network on the loopback interface: a host variable (`…HOST`, `…SEEDS`) naming a
 * service (`postgresql`, `temporal`) becomes 127.0.0.1; a port variable (`…PORT`) holding a
 * service's container port becomes the service's port here; `service:port` and URLs with
 * `@service:port` get both; `0.0.0.0` (every interface of a container) becomes 127.0.0.1.
 */
export function onLoopback(
  environment: Record<string, string>,
  ports: { postgresql: number; temporal: number },
): Record<string, string> {
  const services = [
    { host: 'postgresql', containerPort: '5432', port: String(ports.postgresql) },
    { host: 'temporal', containerPort: '7233', port: String(ports.temporal) },
  ];
  return Object.fromEntries(
    Object.entries(environment).map(([key, value]) => {
      if (value === '0.0.0.0') return [key, '127.0.0.1'];
      let mapped = value;
      for (const { host, containerPort, port } of services) {
        if (/(HOST|SEEDS)$/.test(key) && value === host) mapped = '127.0.0.1';
        if (/PORT$/.test(key) && value === containerPort && host === 'postgresql') mapped = port;
        if (value === `${host}:${containerPort}`) mapped = `127.0.0.1:${port}`;
        mapped = mapped.replaceAll(`@${host}:${containerPort}/`, `@127.0.0.1:${port}/`);
      }
      return [key, mapped];
    }),
  );
}

/**
 * A free port on 127.0.0.1 below 32768: the server keeps its services' ports in a smallint column
 * (cluster_membership), and the OS hands out free ports above that.
 */
async function freeServerPort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = 10_000 + Math.floor(Math.random() * 22_000);
    if (await isPortFree(port)) return port;
  }
  throw new Error('found no free port between 10000 and 32000 on 127.0.0.1');
}

/** Free ports for the server's frontend (gRPC and HTTP), history, matching and worker services. */
async function chooseServerPorts(): Promise<Record<string, string>> {
  const services = ['FRONTEND_GRPC', 'FRONTEND_HTTP', 'FRONTEND_MEMBERSHIP', 'HISTORY_GRPC', 'HISTORY_MEMBERSHIP'];
  services.push('MATCHING_GRPC', 'MATCHING_MEMBERSHIP', 'WORKER_GRPC', 'WORKER_MEMBERSHIP');
  const chosen = new Set<number>();
  while (chosen.size < services.length) chosen.add(await freeServerPort());
  const free = [...chosen];
  return Object.fromEntries(services.map((service, index) => [`${service}_PORT`, String(free[index])]));
}

/** A path inside a job's container, mapped through its volumes to the repository (others unchanged). */
function hostPath(service: ComposeService, word: string): string {
  for (const volume of service.volumes ?? []) {
    const [source = '', target = ''] = volume.split(':');
    if (word === target || word.startsWith(`${target}/`)) {
      return path.join(path.resolve(repoRoot, source), word.slice(target.length));
    }
  }
  return word;
}

/** The worker command with `module` as its `--module` file. */
function withModule(command: readonly string[], module: string): string[] {
  const at = command.indexOf('--module');
  if (at < 0 || at + 1 >= command.length) throw new Error('the worker command has no --module FILE');
  return command.map((word, index) => (index === at + 1 ? module : word));
}

/**
 * The image's files, as the Dockerfile's build stage leaves them: the package built by the same
 * build script (`npm run build`, here into this directory), the repository's package.json, lock
 * file and bin/, and node_modules with the production dependencies only (see
 * {@link linkProductionDependencies}). No src/: bin/toolrail.cjs runs the compiled CLI, as in the image.
 */
async function buildImageDirectory(definition: StackDefinition, directory: string): Promise<void> {
  mkdirSync(directory, { recursive: true });
  for (const copied of definition.image.copied) {
    if (copied === 'dist') {
      await runToEnd(
        process.execPath,
        [path.join(repoRoot, 'scripts', 'build.mjs'), '--out-dir', path.join(directory, 'dist')],
        {
          PATH: process.env.PATH ?? '',
        },
      );
    } else if (copied === 'node_modules') {
      await linkProductionDependencies(path.join(directory, 'node_modules'));
    } else {
      cpSync(path.join(repoRoot, copied), path.join(directory, copied), { recursive: true });
    }
  }
}

/**
 * What `npm prune --omit=dev` leaves at the top of node_modules, as links into the repository's:
 * the compiled package finds its production dependencies (and the peers npm installs) and nothing
 * else. (A dependency's own imports resolve from its real place, among every package installed.)
 */
async function linkProductionDependencies(directory: string): Promise<void> {
  const installed = path.join(repoRoot, 'node_modules');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const listing = await runToEnd(npm, ['ls', '--omit=dev', '--all', '--parseable'], { PATH: process.env.PATH ?? '' });
  for (const packageDirectory of listing.split('\n')) {
    const name = path.relative(installed, packageDirectory.trim());
    if (name === '' || name.startsWith('..') || name.includes(`${path.sep}node_modules${path.sep}`)) continue;
    mkdirSync(path.dirname(path.join(directory, name)), { recursive: true });
    symlinkSync(path.join(installed, name), path.join(directory, name));
  }
}

/** Runs a program to its end; resolves with its output, rejects with it on a non-zero exit. */
async function runToEnd(file: string, args: readonly string[], env: Record<string, string>): Promise<string> {
  const child = spawn(file, args, { env, cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0)
    throw new Error(`${path.basename(file)} ${args.join(' ')} exited with ${String(code)}:\n${tail(output)}`);
  return output;
}

/** SIGTERM to a supervised process (it stops its child), then waits for it to exit. */
async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.stdin?.end();
  child.kill('SIGTERM');
  await exited;
}

/** The last lines of a log, each cut to 400 characters. */
function tail(text: string, lines = 30): string {
  return text
    .split('\n')
    .slice(-lines)
    .map((line) => (line.length > 400 ? `${line.slice(0, 400)}…` : line))
    .join('\n');
}
