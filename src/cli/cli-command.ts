/** One `toolrail` subcommand: takes the arguments after its name and resolves to the exit code. */
export interface CliCommand {
  /** One line shown by `toolrail --help`. */
  readonly summary: string;
  run(argv: readonly string[]): Promise<number>;
}

/** Exit codes shared by every command: 0 done, 1 failed at run time, 2 bad input (usage, rules, trace). */
export const ExitCode = { ok: 0, failure: 1, badInput: 2 } as const;
