import type { CliCommand } from '../cli-command';
import { ExitCode } from '../cli-command';
import { connectionFlags, connectionFlagsHelp } from '../connection/connection-flags';
import { sessionUiUrl } from '../connection/open-client';
import { parseCommandArgs } from '../parse-command-args';
import { buildStartInput, startInputFlags, startInputFlagsHelp } from '../start-input-flags';
import { withClient } from '../with-client';

const usage = `Usage: toolrail start --rules PATH [--rules PATH ...] --model PROVIDER:MODEL|ID [options] [connection flags]

Loads and checks the rules, starts a session on the workers' task queue, and prints its id and
its Temporal Web UI address. (\`toolrail input\` prints the same start input for other clients.)
${startInputFlagsHelp}
  --session-id ID       session (workflow) id (default: session-<uuid>)

${connectionFlagsHelp}`;

/** `toolrail start`: start a session. */
export const startCommand: CliCommand = {
  summary: 'start a session with rules files and a first message',
  async run(argv) {
    const parsed = parseCommandArgs(
      'start',
      argv,
      { ...connectionFlags, ...startInputFlags, 'session-id': { type: 'string' } },
      usage,
    );
    if (!parsed.ok) return parsed.exitCode;
    const values = parsed.values;
    const built = await buildStartInput('start', values);
    if (!built.ok) return built.exitCode;
    const { sessionId, url } = await withClient(values, async ({ toolrail, connection }) => {
      const session = await toolrail.startSession({
        ...built.input,
        ...(values['session-id'] ? { sessionId: values['session-id'] } : {}),
      });
      return { sessionId: session.sessionId, url: sessionUiUrl(connection, session.sessionId) };
    });
    process.stdout.write(`session ${sessionId}\n${url}\n`);
    return ExitCode.ok;
  },
};
