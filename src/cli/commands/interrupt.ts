import type { CliCommand } from '../cli-command';
import { ExitCode } from '../cli-command';
import { connectionFlags, connectionFlagsHelp } from '../connection/connection-flags';
import { parseCommandArgs } from '../parse-command-args';
import { withSessionClient } from '../with-client';

const usage = `Usage: toolrail interrupt SESSION_ID [--message TEXT] [connection flags]

Interrupts a session: the model call and every running tool whose interruptBehavior is cancel stop
(their results say "interrupted by the user"); block tools finish first. With --message, that
message starts the next run.

${connectionFlagsHelp}`;

/** `toolrail interrupt`: stop what a session is doing. */
export const interruptCommand: CliCommand = {
  summary: 'interrupt a session (cancel tools stop, block tools finish)',
  async run(argv) {
    const parsed = parseCommandArgs('interrupt', argv, { ...connectionFlags, message: { type: 'string' } }, usage, 1);
    if (!parsed.ok) return parsed.exitCode;
    const [sessionId = ''] = parsed.positionals;
    const done = await withSessionClient('interrupt', parsed.values, sessionId, ({ toolrail }) =>
      toolrail.getSession(sessionId).interrupt(parsed.values.message),
    );
    if (done === undefined) return ExitCode.failure;
    process.stdout.write(`interrupted ${sessionId}\n`);
    return ExitCode.ok;
  },
};
