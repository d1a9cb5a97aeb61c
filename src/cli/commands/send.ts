import type { CliCommand } from '../cli-command';
import { ExitCode } from '../cli-command';
import { connectionFlags, connectionFlagsHelp } from '../connection/connection-flags';
import { parseCommandArgs } from '../parse-command-args';
import { storeProblemLine } from '../session-command-error';
import { withSessionClient } from '../with-client';

const usage = `Usage: toolrail send SESSION_ID TEXT [--wait] [connection flags]

Sends a user message. It starts a run now, or after the tools running now have finished. Prints
the message's offset in the session's live feed (\`toolrail follow SESSION_ID --from N\`). When the
session waits for its content store, the message is kept and runs once the store is back (it says so).
  --wait   wait until the run the message started has ended; print how it ended and the model's answer

${connectionFlagsHelp}`;

/** `toolrail send`: a user message to a session. */
export const sendCommand: CliCommand = {
  summary: 'send a user message to a session (--wait: and print the answer)',
  async run(argv) {
    const parsed = parseCommandArgs('send', argv, { ...connectionFlags, wait: { type: 'boolean' } }, usage, 2);
    if (!parsed.ok) return parsed.exitCode;
    const [sessionId = '', ...words] = parsed.positionals;
    const sent = await withSessionClient('send', parsed.values, sessionId, async ({ toolrail }) => {
      const session = toolrail.getSession(sessionId);
      const message = await session.send(words.join(' '));
      process.stdout.write(`sent to ${sessionId} (feed offset ${message.offset})\n`);
      const problem = (await session.status().catch(() => undefined))?.storeProblem;
      if (problem !== undefined)
        process.stdout.write(
          `${storeProblemLine(sessionId, problem)}; the message is kept and runs once the store is back\n`,
        );
      if (!parsed.values.wait) return true;
      const reply = await message.reply();
      process.stdout.write(`run ${reply.run} ended: ${reply.reason}${reply.detail ? ` (${reply.detail})` : ''}\n`);
      if (reply.answer !== undefined) process.stdout.write(`${reply.answer}\n`);
      return true;
    });
    if (sent === undefined) return ExitCode.failure;
    return ExitCode.ok;
  },
};
