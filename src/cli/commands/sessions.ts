import type { ListedSessionStatus } from '../../session';
import { listedSessionStatuses } from '../../session';
import type { CliCommand } from '../cli-command';
import { ExitCode } from '../cli-command';
import { connectionFlags, connectionFlagsHelp } from '../connection/connection-flags';
import { sessionUiUrl } from '../connection/open-client';
import { parseCommandArgs } from '../parse-command-args';
import { formatTable } from '../render/format-table';
import { storeProblemLine } from '../session-command-error';
import { withClient } from '../with-client';

const statuses = listedSessionStatuses;
const usage = `Usage: toolrail sessions [--status ${statuses.join('|')}] [--limit N] [--json] [connection flags]

Lists sessions, newest first, filtered by the ToolrailStatus search attribute (the same filter
works in the Web UI: ToolrailStatus="awaiting_approval"; a session that thinks or runs tools is
running there, and \`toolrail state\` tells which), with the tokens each used so far
(ToolrailTotalTokens: input plus output). For each session that waits for its content store
(waiting_for_store), and each one whose workflow task keeps failing (its status cannot change
then), a line under the table says why.

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
    if (status !== undefined && !statuses.includes(status as ListedSessionStatus)) {
      process.stderr.write(`toolrail sessions: --status must be one of ${statuses.join(', ')}\n`);
      return ExitCode.badInput;
    }
    const output = await withClient(parsed.values, async ({ toolrail, connection }) => {
      const sessions = await toolrail.listSessions({
        ...(status ? { status: status as ListedSessionStatus } : {}),
        limit: limit === undefined ? 50 : Number(limit),
      });
      // Why each waiting session waits: its status query says (a session whose query fails is listed without).
      const problems = new Map(
        await Promise.all(
          sessions
            .filter((session) => session.status === 'waiting_for_store')
            .map(async (session) => {
              const status = await toolrail
                .getSession(session.sessionId)
                .status()
                .catch(() => undefined);
              return [session.sessionId, status?.storeProblem] as const;
            }),
        ),
      );
      // A running session whose workflow task keeps failing cannot update its status: say why it cannot run.
      const stuck = new Map(
        await Promise.all(
          sessions
            .filter((session) => session.workflowStatus === 'RUNNING')
            .map(async (session) => {
              const handle = toolrail.getSession(session.sessionId);
              const attempt = (await handle.workflow.describe().catch(() => undefined))?.raw.pendingWorkflowTask
                ?.attempt;
              const why = (attempt ?? 0) > 1 ? await handle.workflowTaskFailure().catch(() => undefined) : undefined;
              return [session.sessionId, why] as const;
            }),
        ),
      );
      if (json)
        return JSON.stringify(
          sessions.map((session) => {
            const storeProblem = problems.get(session.sessionId);
            const workflowTaskFailure = stuck.get(session.sessionId);
            return {
              ...session,
              ...(storeProblem === undefined ? {} : { storeProblem }),
              ...(workflowTaskFailure === undefined ? {} : { workflowTaskFailure }),
            };
          }),
          null,
          2,
        );
      if (sessions.length === 0) return 'no sessions';
      const reasons = [
        ...[...problems].flatMap(([id, problem]) => (problem ? [storeProblemLine(id, problem)] : [])),
        ...[...stuck].flatMap(([id, why]) =>
          why === undefined ? [] : [`session ${id} cannot run: its workflow task fails: ${why}`],
        ),
      ];
      return [
        ...formatTable(
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
        ),
        ...reasons,
      ].join('\n');
    });
    process.stdout.write(`${output}\n`);
    return ExitCode.ok;
  },
};
