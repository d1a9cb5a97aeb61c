import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { createWorker, readWorkerModule } from '../../worker';
import type { CliCommand } from '../cli-command';
import { ExitCode } from '../cli-command';
import { connectionFlags, connectionFlagsHelp } from '../connection/connection-flags';
import { resolveConnection } from '../connection/resolve-connection';
import { parseCommandArgs } from '../parse-command-args';

const usage = `Usage: toolrail worker --module FILE [connection flags]

Runs a worker that executes toolrail sessions on the task queue, with the tools (and scripted
models) of FILE, a module whose default export is { tools, scriptedModels?, hooks? } (tools: a
list, or a ToolRegistry, e.g. one MCP servers keep their tools in). Start more
workers on the same task queue to scale out. Ctrl-C drains running tasks and stops.

${connectionFlagsHelp}`;

/** `toolrail worker`: serve sessions with a module's tools. */
export const workerCommand: CliCommand = {
  summary: 'run a worker with the tools of a module',
  async run(argv) {
    const parsed = parseCommandArgs('worker', argv, { ...connectionFlags, module: { type: 'string' } }, usage);
    if (!parsed.ok) return parsed.exitCode;
    if (!parsed.values.module) {
      process.stderr.write('toolrail worker: give --module FILE (see --help)\n');
      return ExitCode.badInput;
    }
    Runtime.install({ logger: new DefaultLogger('WARN') });
    const file = path.resolve(parsed.values.module);
    const module = readWorkerModule(await import(pathToFileURL(file).href), file);
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
      });
      process.stdout.write(
        `worker: ${('list' in module.tools ? module.tools.list() : module.tools).length} tools on task queue ${settings.taskQueue} at ${settings.address} (namespace ${settings.namespace}); Ctrl-C to stop\n`,
      );
      // The Temporal runtime shuts its workers down on SIGINT/SIGTERM (draining running tasks).
      await worker.run();
    } finally {
      await connection.close();
    }
    return ExitCode.ok;
  },
};
