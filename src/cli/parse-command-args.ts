import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { ExitCode } from './cli-command';
import { reportBadInput } from './report-bad-input';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Parsed arguments, or the exit code to return (help printed, or a usage error reported). */
export type ParsedCommandArgs<O extends Options> =
  | {
      ok: true;
      values: ReturnType<typeof parseArgs<{ options: O; allowPositionals: true }>>['values'];
      positionals: string[];
    }
  | { ok: false; exitCode: number };

/**
 * Parses a command's arguments with `node:util` `parseArgs`; prints `usage` for `--help`, and one
 * line naming the problem (exit 2) for unknown flags or fewer positionals than `minPositionals`.
 */
export function parseCommandArgs<O extends Options>(
  name: string,
  argv: readonly string[],
  options: O,
  usage: string,
  minPositionals = 0,
  maxPositionals = Number.POSITIVE_INFINITY,
): ParsedCommandArgs<O> {
  try {
    const parsed = parseArgs({
      args: [...argv],
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
    });
    if ((parsed.values as { help?: boolean }).help) {
      process.stdout.write(`${usage}\n`);
      return { ok: false, exitCode: ExitCode.ok };
    }
    if (parsed.positionals.length < minPositionals) {
      return {
        ok: false,
        exitCode: reportBadInput(`toolrail ${name}: missing arguments (see --help)\n${usage.split('\n')[0] ?? ''}`),
      };
    }
    if (parsed.positionals.length > maxPositionals) {
      return {
        ok: false,
        exitCode: reportBadInput(
          `toolrail ${name}: unexpected argument '${parsed.positionals[maxPositionals] ?? ''}' (see --help)`,
        ),
      };
    }
    return { ok: true, values: parsed.values as never, positionals: parsed.positionals };
  } catch (error) {
    return {
      ok: false,
      exitCode: reportBadInput(
        `toolrail ${name}: ${error instanceof Error ? error.message : String(error)} (see --help)`,
      ),
    };
  }
}
