import { writeFile } from 'node:fs/promises';
import type { TranscriptEntry } from '../../session';
import { ContentStoreError } from '../../store';
import type { CliCommand } from '../cli-command';
import { ExitCode } from '../cli-command';
import { connectionFlags, connectionFlagsHelp } from '../connection/connection-flags';
import { parseCommandArgs } from '../parse-command-args';
import { renderTranscriptEntry } from '../render/render-transcript-entry';
import { withSessionClient } from '../with-client';

const usage = `Usage: toolrail transcript SESSION_ID [--json] [--trace [FILE]] [connection flags]

Prints what happened in a session, turn by turn: user messages, visible tools, proposed calls,
verdicts with reasons, approvals, tool results and why each run ended. Whole messages and results
are read from the content store (TOOLRAIL_CONTENT_STORE, else .toolrail/content); when it cannot be
read, the session's previews are printed with a warning.
  --json          the transcript entries as JSON
  --trace [FILE]  write the session as a trace for \`toolrail simulate\` (JSON) to FILE, or to stdout
                  without FILE (or with -): replay other rules over what the session really did

${connectionFlagsHelp}`;

/** `--trace` with no value (last, or before another flag) means stdout: give parseArgs `-`. */
function withTraceValue(argv: readonly string[]): string[] {
  return argv.map((arg, index) =>
    arg === '--trace' && (index === argv.length - 1 || (argv[index + 1] ?? '').startsWith('--')) ? '--trace=-' : arg,
  );
}

/** `toolrail transcript`: a session turn by turn, or as a trace to simulate. */
export const transcriptCommand: CliCommand = {
  summary: 'print a session turn by turn (calls, verdicts, results), or export it as a trace',
  async run(argv) {
    const parsed = parseCommandArgs(
      'transcript',
      withTraceValue(argv),
      { ...connectionFlags, json: { type: 'boolean' }, trace: { type: 'string' } },
      usage,
      1,
    );
    if (!parsed.ok) return parsed.exitCode;
    const [sessionId = ''] = parsed.positionals;
    const traceFile = parsed.values.trace;
    if (traceFile !== undefined) {
      const trace = await withSessionClient('transcript', parsed.values, sessionId, ({ toolrail }) =>
        toolrail.getSession(sessionId).exportTrace(),
      );
      if (trace === undefined) return ExitCode.failure;
      const text = `${JSON.stringify(trace.value, null, 2)}\n`;
      if (traceFile === '-') process.stdout.write(text);
      else await writeFile(traceFile, text);
      return ExitCode.ok;
    }
    const read = await withSessionClient('transcript', parsed.values, sessionId, async ({ toolrail }) => {
      const session = toolrail.getSession(sessionId);
      try {
        return await session.transcript({ full: true });
      } catch (error) {
        if (!(error instanceof ContentStoreError)) throw error;
        process.stderr.write(`toolrail transcript: showing previews: ${error.message}\n`);
        return session.transcript();
      }
    });
    if (read === undefined) return ExitCode.failure;
    const entries: TranscriptEntry[] = read.value;
    process.stdout.write(
      parsed.values.json
        ? `${JSON.stringify(entries, null, 2)}\n`
        : entries.map(renderTranscriptEntry).join('\n') + '\n',
    );
    return ExitCode.ok;
  },
};
