import type { CliCommand } from '../cli-command';
import { ExitCode } from '../cli-command';
import { connectionFlags, connectionFlagsHelp } from '../connection/connection-flags';
import { parseCommandArgs } from '../parse-command-args';
import { withClient } from '../with-client';

const usage = `Usage: toolrail send SESSION_ID TEXT [connection flags]

Sends a user message. It starts a run now, or after the tools running now have finished.

${connectionFlagsHelp}`;

/** `toolrail send`: a user message to a session. */
export const sendCommand: CliCommand = {
  summary: 'send a user message to a session',
  async run(argv) {
    const parsed = parseCommandArgs('send', argv, connectionFlags, usage, 2);
    if (!parsed.ok) return parsed.exitCode;
    const [sessionId = '', ...words] = parsed.positionals;
    await withClient(parsed.values, ({ toolrail }) => toolrail.getSession(sessionId).send(words.join(' ')));
    process.stdout.write(`sent to ${sessionId}\n`);
    return ExitCode.ok;
  },
};
