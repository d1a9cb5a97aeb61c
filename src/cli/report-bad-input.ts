import { ExitCode } from './cli-command';

/** Writes one line about bad input (usage, rules, trace) to stderr and returns exit code 2. */
export function reportBadInput(line: string): number {
  process.stderr.write(`${line}\n`);
  return ExitCode.badInput;
}
