import type { CliCommand } from './cli-command';
import { ExitCode } from './cli-command';

/** Every subcommand, loaded lazily so `toolrail simulate` never loads the Temporal worker. */
const commands: Record<string, () => Promise<CliCommand>> = {
  'dev-server': async () => (await import('./commands/dev-server')).devServerCommand,
  simulate: async () => (await import('./commands/simulate')).simulateCommand,
  lint: async () => (await import('./commands/lint')).lintCommand,
  graph: async () => (await import('./commands/graph')).graphCommand,
  worker: async () => (await import('./commands/worker')).workerCommand,
  start: async () => (await import('./commands/start')).startCommand,
  input: async () => (await import('./commands/input')).inputCommand,
  send: async () => (await import('./commands/send')).sendCommand,
  interrupt: async () => (await import('./commands/interrupt')).interruptCommand,
  approve: async () => (await import('./commands/approve')).approveCommand,
  deny: async () => (await import('./commands/approve')).denyCommand,
  state: async () => (await import('./commands/state')).stateCommand,
  transcript: async () => (await import('./commands/transcript')).transcriptCommand,
  follow: async () => (await import('./commands/follow')).followCommand,
  sessions: async () => (await import('./commands/sessions')).sessionsCommand,
  store: async () => (await import('./commands/store')).storeCommand,
};

async function printHelp(): Promise<void> {
  const lines = ['Usage: toolrail <command> [options]', '', 'Commands:'];
  for (const name of Object.keys(commands).sort()) {
    const command = await commands[name]?.();
    lines.push(`  ${name.padEnd(12)} ${command?.summary ?? ''}`);
  }
  lines.push('', 'Run `toolrail <command> --help` for the options of one command.');
  process.stdout.write(lines.join('\n') + '\n');
}

async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    await printHelp();
    return name === undefined ? ExitCode.badInput : ExitCode.ok;
  }
  const load = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!load) {
    process.stderr.write(`toolrail: unknown command '${name}'. Run \`toolrail --help\` for the list.\n`);
    return ExitCode.badInput;
  }
  const command = await load();
  return command.run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`toolrail: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = ExitCode.failure;
  },
);
