import path from 'node:path';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import type { LogLevel } from '@temporalio/worker';
import { createWorker, readWorkerModule } from '../../worker';
import type { CliCommand } from '../cli-command';
import { ExitCode } from '../cli-command';
import { connectionFlags, connectionFlagsHelp } from '../connection/connection-flags';
import { resolveConnection } from '../connection/resolve-connection';
import { loadCodecModule } from '../connection/load-codec-module';
import { reportBadInput } from '../report-bad-input';
import { importUserModule } from '../import-user-module';
import { parseCommandArgs } from '../parse-command-args';

const logLevels: readonly LogLevel[] = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR'];

const usage = `Usage: toolrail worker --module FILE [--codec-module FILE] [--log-level LEVEL] [connection flags]

Runs a worker that executes toolrail sessions on the task queue, with the tools (and scripted
models) of FILE, a module whose default export is { tools, scriptedModels?, hooks? }. Start more
workers on the same task queue to scale out. Ctrl-C drains running tasks and stops.
With --codec-module (TOOLRAIL_CODEC_MODULE), its payloadCodecs encode the worker's Temporal
payloads and everything it writes to the content store (TOOLRAIL_CONTENT_STORE).
  --log-level LEVEL   ${logLevels.join('|')} (TOOLRAIL_LOG_LEVEL, default WARN)

${connectionFlagsHelp}`;

/** `toolrail worker`: serve sessions with a module's tools. */
export const workerCommand: CliCommand = {
  summary: 'run a worker with the tools of a module',
  async run(argv) {
    const parsed = parseCommandArgs(
      'worker',
      argv,
      { ...connectionFlags, module: { type: 'string' }, 'log-level': { type: 'string' } },
      usage,
    );
    if (!parsed.ok) return parsed.exitCode;
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
        ...(module.scriptedModels ? { scriptedModels: module.scriptedModels } : {}),
        ...(module.hooks ? { hooks: module.hooks } : {}),
        ...(payloadCodecs.length > 0 ? { workerOptions: { dataConverter: { payloadCodecs } } } : {}),
      });
      process.stdout.write(
        `worker: ${module.tools.length} tools on task queue ${settings.taskQueue} at ${settings.address} (namespace ${settings.namespace})${payloadCodecs.length > 0 ? `, ${payloadCodecs.length} payload codec(s)` : ''}; Ctrl-C to stop\n`,
      );
      // The Temporal runtime shuts its workers down on SIGINT/SIGTERM (draining running tasks).
      await worker.run();
    } finally {
      await connection.close();
    }
    return ExitCode.ok;
  },
};
