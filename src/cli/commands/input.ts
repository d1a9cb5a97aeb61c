import type { CliCommand } from '../cli-command';
import { ExitCode } from '../cli-command';
import { parseCommandArgs } from '../parse-command-args';
import { buildStartInput, startInputFlags, startInputFlagsHelp } from '../start-input-flags';

const usage = `Usage: toolrail input --rules PATH [--rules PATH ...] --model PROVIDER:MODEL|ID [options]

Prints a session's start input as JSON: the rules files loaded, checked and compiled, with the
model and options. It is the one argument of the agentSession workflow, for any Temporal client:

  toolrail input --rules rules.yaml --model openai:gpt-5.4-mini --message "Hi" > input.json
  temporal workflow start --type agentSession --task-queue toolrail --input-file input.json

Its JSON Schema is toolrail/session-input.schema.json; docs/wire.md has the rest of the contract.
${startInputFlagsHelp}`;

/** `toolrail input`: a ready start input, for clients in other languages and the `temporal` CLI. */
export const inputCommand: CliCommand = {
  summary: 'print a start input (compiled rules, model, options) for any Temporal client',
  async run(argv) {
    const parsed = parseCommandArgs('input', argv, startInputFlags, usage, 0, 0);
    if (!parsed.ok) return parsed.exitCode;
    const built = await buildStartInput('input', parsed.values);
    if (!built.ok) return built.exitCode;
    process.stdout.write(`${JSON.stringify(built.input)}\n`);
    return ExitCode.ok;
  },
};
