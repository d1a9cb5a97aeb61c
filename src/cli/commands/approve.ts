import type { CliCommand } from '../cli-command';
import { ExitCode } from '../cli-command';
import { connectionFlags, connectionFlagsHelp } from '../connection/connection-flags';
import { parseCommandArgs } from '../parse-command-args';
import { withClient } from '../with-client';

function decisionCommand(decision: 'approve' | 'deny'): CliCommand {
  const usage = `Usage: toolrail ${decision} SESSION_ID CALL_ID [--reason TEXT] [connection flags]

${decision === 'approve' ? 'Approves' : 'Denies'} a tool call that waits for a human (see \`toolrail state\` for pending
approvals). Refused, with nothing changed, when no such call waits.

${connectionFlagsHelp}`;
  return {
    summary: `${decision} a tool call that waits for a human`,
    async run(argv) {
      const parsed = parseCommandArgs(decision, argv, { ...connectionFlags, reason: { type: 'string' } }, usage, 2);
      if (!parsed.ok) return parsed.exitCode;
      const [sessionId = '', callId = ''] = parsed.positionals;
      try {
        await withClient(parsed.values, ({ toolrail }) => {
          const session = toolrail.getSession(sessionId);
          return decision === 'approve'
            ? session.approve(callId, parsed.values.reason)
            : session.deny(callId, parsed.values.reason);
        });
      } catch (error) {
        process.stderr.write(
          `toolrail ${decision}: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}\n`,
        );
        return ExitCode.badInput;
      }
      process.stdout.write(`${decision === 'approve' ? 'approved' : 'denied'} ${callId} in ${sessionId}\n`);
      return ExitCode.ok;
    },
  };
}

/** `toolrail approve`. */
export const approveCommand = decisionCommand('approve');
/** `toolrail deny`. */
export const denyCommand = decisionCommand('deny');
