import type { TranscriptEntry } from '../../session/session-views';
import { ContentStoreError } from '../../store/content-store-error';
import type { CliCommand } from '../cli-command';
import { ExitCode } from '../cli-command';
import { connectionFlags, connectionFlagsHelp } from '../connection/connection-flags';
import { parseCommandArgs } from '../parse-command-args';
import { renderTranscriptEntry } from '../render/render-transcript-entry';
import { withClient } from '../with-client';

const usage = `Usage: toolrail transcript SESSION_ID [--json] [connection flags]

Prints what happened in a session, turn by turn: user messages, visible tools, proposed calls,
verdicts with reasons, approvals, tool results and why each run ended. Whole messages and results
are read from the content store (TOOLRAIL_CONTENT_STORE, else .toolrail/content); when it cannot be
read, the session's previews are printed with a warning.

${connectionFlagsHelp}`;

/** `toolrail transcript`: a session turn by turn. */
export const transcriptCommand: CliCommand = {
  summary: 'print a session turn by turn (calls, verdicts, results)',
  async run(argv) {
    const parsed = parseCommandArgs('transcript', argv, { ...connectionFlags, json: { type: 'boolean' } }, usage, 1);
    if (!parsed.ok) return parsed.exitCode;
    const [sessionId = ''] = parsed.positionals;
    const entries: TranscriptEntry[] = await withClient(parsed.values, async ({ toolrail }) => {
      const session = toolrail.getSession(sessionId);
      try {
        return await session.transcript({ full: true });
      } catch (error) {
        if (!(error instanceof ContentStoreError)) throw error;
        process.stderr.write(`toolrail transcript: showing previews: ${error.message}\n`);
        return session.transcript();
      }
    });
    process.stdout.write(
      parsed.values.json
        ? `${JSON.stringify(entries, null, 2)}\n`
        : entries.map(renderTranscriptEntry).join('\n') + '\n',
    );
    return ExitCode.ok;
  },
};
