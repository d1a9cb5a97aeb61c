import path from 'node:path';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import type { LogLevel } from '@temporalio/worker';
import { createWorker, readWorkerModule } from '../../worker';
import { openContentStore, readStoreIdentity } from '../../store';
import { openLiveChannel } from '../../live';
import type { ContentStore } from '../../store';
import type { CliCommand } from '../cli-command';
import { ExitCode } from '../cli-command';
import { connectionFlags, connectionFlagsHelp } from '../connection/connection-flags';
import { resolveConnection } from '../connection/resolve-connection';
import { loadCodecModule } from '../connection/load-codec-module';
import { reportBadInput } from '../report-bad-input';
import { importUserModule } from '../import-user-module';
import { parseCommandArgs } from '../parse-command-args';
import { checkWorkerHealth, keepHealthFile } from '../worker-health';

const logLevels: readonly LogLevel[] = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR'];

const usage = `Usage: toolrail worker --module FILE [--codec-module FILE] [--log-level LEVEL] [--health-file FILE]
                       [--workflow-stack-traces] [connection flags]
       toolrail worker --health [--health-file FILE] [connection flags]

Runs a worker that executes toolrail sessions on the task queue, with the tools and models of
FILE, a module whose default export is { tools, models?, modelRegistry?, scriptedModels?, hooks? }
(tools: a list, or a ToolRegistry, e.g. one MCP servers keep their tools in). Start more workers
on the same task queue to scale out: every worker of a task queue must use the same content store
(TOOLRAIL_CONTENT_STORE: a postgres:// URL for workers on several machines; the default directory
store .toolrail/content is for one machine). It prints the store it uses (never its password).
With --codec-module (TOOLRAIL_CODEC_MODULE), its payloadCodecs encode the worker's Temporal
payloads and everything it writes to the content store. With --live (TOOLRAIL_LIVE), it publishes
the sessions' events and streamed text on that channel, and takes their cancellations from it.
Ctrl-C drains running tasks and stops.

  --log-level LEVEL    ${logLevels.join('|')} (TOOLRAIL_LOG_LEVEL, default WARN)
  --health-file FILE   keep FILE telling the worker's state, rewritten every 10 s and removed at
                       shutdown (TOOLRAIL_WORKER_HEALTH_FILE; the container image sets it)
  --workflow-stack-traces
                       capture stack traces in the sessions' workflow code, so the Web UI's Stack
                       Trace tab shows where a session's code stands (off by default: it costs
                       about a fifth of a turn's workflow-thread CPU)
  --health             check the worker that keeps the health file instead of running one: exits 0
                       when the file is fresh, its process alive and RUNNING, and the server lists
                       it polling its task queue for workflow and activity tasks; else exits 1 (a
                       container health check)

${connectionFlagsHelp}`;

/** `toolrail worker`: serve sessions with a module's tools, or check a running worker's health. */
export const workerCommand: CliCommand = {
  summary: 'run a worker with the tools of a module (or check its health)',
  async run(argv) {
    const parsed = parseCommandArgs(
      'worker',
      argv,
      {
        ...connectionFlags,
        module: { type: 'string' },
        'log-level': { type: 'string' },
        health: { type: 'boolean' },
        'health-file': { type: 'string' },
        'workflow-stack-traces': { type: 'boolean' },
      },
      usage,
    );
    if (!parsed.ok) return parsed.exitCode;
    const healthFile = parsed.values['health-file'] ?? process.env.TOOLRAIL_WORKER_HEALTH_FILE;
    if (parsed.values.health) {
      if (!healthFile) {
        process.stderr.write('toolrail worker --health: give --health-file FILE or set TOOLRAIL_WORKER_HEALTH_FILE\n');
        return ExitCode.badInput;
      }
      const health = await checkWorkerHealth(path.resolve(healthFile), resolveConnection(parsed.values));
      (health.healthy ? process.stdout : process.stderr).write(
        `${health.healthy ? 'healthy' : 'unhealthy'}: ${health.reason}\n`,
      );
      return health.healthy ? ExitCode.ok : ExitCode.failure;
    }
    if (!parsed.values.module) {
      process.stderr.write('toolrail worker: give --module FILE (see --help)\n');
      return ExitCode.badInput;
    }
    const level = (parsed.values['log-level'] ?? process.env.TOOLRAIL_LOG_LEVEL ?? 'WARN').toUpperCase();
    if (!logLevels.includes(level as LogLevel))
      return reportBadInput(`toolrail worker: --log-level must be one of ${logLevels.join(', ')}`);
    Runtime.install({ logger: new DefaultLogger(level as LogLevel) });
    const file = path.resolve(parsed.values.module);
    const module = readWorkerModule(await importUserModule(file), file);
    const payloadCodecs = await loadCodecModule(parsed.values['codec-module']);
    const settings = resolveConnection(parsed.values);
    const store = openContentStore();
    // The live channel (`--live`, else TOOLRAIL_LIVE), opened here so the worker says which it is.
    const live = openLiveChannel(parsed.values.live);
    const connection = await NativeConnection.connect({
      address: settings.address,
      ...(settings.tls !== undefined ? { tls: settings.tls } : {}),
      ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
      ...(settings.metadata ? { metadata: settings.metadata } : {}),
    });
    try {
      const worker = await createWorker({
        connection,
        namespace: settings.namespace,
        taskQueue: settings.taskQueue,
        tools: module.tools,
        ...(module.models ? { models: module.models } : {}),
        ...(module.modelRegistry ? { modelRegistry: module.modelRegistry } : {}),
        ...(module.scriptedModels ? { scriptedModels: module.scriptedModels } : {}),
        ...(module.hooks ? { hooks: module.hooks } : {}),
        contentStore: store,
        live: live ?? 'off',
        ...(parsed.values['workflow-stack-traces'] ? { workflowStackTraces: true } : {}),
        ...(payloadCodecs.length > 0 ? { workerOptions: { dataConverter: { payloadCodecs } } } : {}),
      });
      // The Temporal runtime shuts its workers down on SIGINT/SIGTERM (draining running tasks).
      const running = worker.run();
      const removeHealthFile = healthFile ? keepHealthFile(worker, path.resolve(healthFile)) : undefined;
      process.stdout.write(
        `worker: ${('list' in module.tools ? module.tools.list() : module.tools).length} tools on task queue ${settings.taskQueue} at ${settings.address} (namespace ${settings.namespace})${payloadCodecs.length > 0 ? `, ${payloadCodecs.length} payload codec(s)` : ''}; Ctrl-C to stop\n`,
      );
      process.stdout.write(`worker: content store ${await describeStore(store)}
`);
      if (live !== undefined) process.stdout.write(`worker: live channel ${live.description}\n`);
      try {
        await running;
      } finally {
        removeHealthFile?.();
      }
    } finally {
      await connection.close();
      await live?.close();
      await store.close();
    }
    return ExitCode.ok;
  },
};

/**
 * The store's description and identity, or why its identity cannot be read now (the worker runs
 * anyway and waits for it).
 */
async function describeStore(store: ContentStore): Promise<string> {
  try {
    const { id, description } = await readStoreIdentity(store);
    return `${description} (store id ${id})`;
  } catch (error) {
    return `${store.description} (unreachable now: ${error instanceof Error ? error.message : String(error)})`;
  }
}
