import type { SessionStatus } from '../../session';
import { SessionStatus as SessionStatuses } from '../../session';
import type { CliCommand } from '../cli-command';
import { ExitCode } from '../cli-command';
import { connectionFlags, connectionFlagsHelp } from '../connection/connection-flags';
import { sessionUiUrl } from '../connection/open-client';
import { parseCommandArgs } from '../parse-command-args';
import { formatTable } from '../render/format-table';
import { withClient } from '../with-client';

const statuses = Object.values(SessionStatuses);
const usage = `Usage: toolrail sessions [--status ${statuses.join('|')}] [--limit N] [--json] [connection flags]

Lists sessions, newest first, filtered by the ToolrailStatus search attribute (the same filter
works in the Web UI: ToolrailStatus="awaiting_approval"), with the tokens each used so far
(ToolrailTotalTokens: input plus output).

${connectionFlagsHelp}`;

/** `toolrail sessions`: list sessions by status. */
export const sessionsCommand: CliCommand = {
  summary: 'list sessions, optionally by status',
  async run(argv) {
    const parsed = parseCommandArgs(
      'sessions',
      argv,
      { ...connectionFlags, status: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean' } },
      usage,
    );
    if (!parsed.ok) return parsed.exitCode;
    const { status, limit, json } = parsed.values;
    if (status !== undefined && !statuses.includes(status as SessionStatus)) {
      process.stderr.write(`toolrail sessions: --status must be one of ${statuses.join(', ')}\n`);
      return ExitCode.badInput;
    }
    const output = await withClient(parsed.values, async ({ toolrail, connection }) => {
      const sessions = await toolrail.listSessions({
        ...(status ? { status: status as SessionStatus } : {}),
        limit: limit === undefined ? 50 : Number(limit),
      });
      if (json) return JSON.stringify(sessions, null, 2);
      if (sessions.length === 0) return 'no sessions';
      return formatTable(
        ['SESSION', 'STATUS', 'WORKFLOW', 'STARTED', 'TOKENS', 'UI'],
        sessions.map((session) => [
          session.sessionId,
          session.status ?? '-',
          session.workflowStatus,
          session.startTime.toISOString(),
          session.totalTokens === undefined ? '-' : String(session.totalTokens),
          sessionUiUrl(connection, session.sessionId),
        ]),
        120,
      ).join('\n');
    });
    process.stdout.write(`${output}\n`);
    return ExitCode.ok;
  },
};
