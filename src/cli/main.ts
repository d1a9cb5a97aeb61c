import type { CliCommand } from './cli-command';
import { ExitCode } from './cli-command';

/** Every subcommand, loaded lazily so `toolrail simulate` never loads the Temporal worker. */
const commands: Record<string, () => Promise<CliCommand>> = {
  'dev-server': async () => (await import('./commands/dev-server')).devServerCommand,
};

function printHelp(): void {
  const lines = ['Usage: toolrail <command> [options]', '', 'Commands:'];
  for (const name of Object.keys(commands).sort()) lines.push(`  ${name}`);
  lines.push('', 'Run `toolrail <command> --help` for the options of one command.');
  process.stdout.write(lines.join('\n') + '\n');
}

async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    printHelp();
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
