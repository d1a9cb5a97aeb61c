import type { CliCommand } from '../cli-command';
import { ExitCode } from '../cli-command';
import { connectionFlags, connectionFlagsHelp } from '../connection/connection-flags';
import { parseCommandArgs } from '../parse-command-args';
import { storeProblemLine } from '../session-command-error';
import { withSessionClient } from '../with-client';

const usage = `Usage: toolrail send SESSION_ID TEXT [connection flags]

Sends a user message. It starts a run now, or after the tools running now have finished. When the
session waits for its content store, the message is kept and runs once the store is back (it says so).

${connectionFlagsHelp}`;

/** `toolrail send`: a user message to a session. */
export const sendCommand: CliCommand = {
  summary: 'send a user message to a session',
  async run(argv) {
    const parsed = parseCommandArgs('send', argv, connectionFlags, usage, 2);
    if (!parsed.ok) return parsed.exitCode;
    const [sessionId = '', ...words] = parsed.positionals;
    const sent = await withSessionClient('send', parsed.values, sessionId, async ({ toolrail }) => {
      const session = toolrail.getSession(sessionId);
      await session.send(words.join(' '));
      return session.status().catch(() => undefined);
    });
    if (sent === undefined) return ExitCode.failure;
    process.stdout.write(`sent to ${sessionId}\n`);
    const problem = sent.value?.storeProblem;
    if (problem !== undefined)
      process.stdout.write(
        `${storeProblemLine(sessionId, problem)}; the message is kept and runs once the store is back\n`,
      );
    return ExitCode.ok;
  },
};
