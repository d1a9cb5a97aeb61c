import type { CliCommand } from '../cli-command';
import { ExitCode } from '../cli-command';
import { connectionFlags, connectionFlagsHelp } from '../connection/connection-flags';
import { parseCommandArgs } from '../parse-command-args';
import { renderFeedEvent } from '../render/render-feed-event';
import { reportBadInput } from '../report-bad-input';
import { waitForShutdownSignal } from '../wait-for-shutdown-signal';
import { withClient } from '../with-client';

const usage = `Usage: toolrail follow SESSION_ID [--from N] [--json] [connection flags]

Prints a session's live feed as it happens: user messages, the tools the rules show and hide (and
why), the model's text as it writes, proposed calls, verdicts with reasons, approvals asked and
decided, tools starting and ending, interrupts and why each run ended. Exits 0 when the session
ends, or on Ctrl-C. Across continue-as-new and worker restarts; it writes nothing to the session.
With the workers' live channel (--live, TOOLRAIL_LIVE) events come through it, and the model's
text as it writes it; the feed is queried only to catch up.
  --from N   start at feed offset N (default 0: the session's first event)
  --json     one feed event per line, as JSON (with its offset, type, run, turn and workflow time)

${connectionFlagsHelp}`;

/** `toolrail follow`: a session's live feed. */
export const followCommand: CliCommand = {
  summary: "print a session's live feed as it happens (text, calls, verdicts, approvals, results)",
  async run(argv) {
    const parsed = parseCommandArgs(
      'follow',
      argv,
      { ...connectionFlags, from: { type: 'string' }, json: { type: 'boolean' } },
      usage,
      1,
      1,
    );
    if (!parsed.ok) return parsed.exitCode;
    const [sessionId = ''] = parsed.positionals;
    const from = Number(parsed.values.from ?? '0');
    if (!Number.isSafeInteger(from) || from < 0)
      return reportBadInput(`toolrail follow: --from must be a feed offset (0, 1, 2, …), got '${parsed.values.from}'`);
    const stop = new AbortController();
    void waitForShutdownSignal().then(() => stop.abort());
    await withClient(parsed.values, async ({ toolrail }) => {
      // Text the live channel brings as the model writes it goes on one line, piece after piece.
      let writing = false;
      for await (const event of toolrail.getSession(sessionId).events({ from, signal: stop.signal })) {
        if (!parsed.values.json && event.type === 'text_delta' && event.live) {
          process.stdout.write(writing ? event.text : `[turn ${event.turn}] model writes: ${event.text}`);
          writing = true;
          continue;
        }
        if (writing) process.stdout.write('\n');
        writing = false;
        const line = parsed.values.json ? JSON.stringify(event) : renderFeedEvent(event);
        if (line !== undefined) process.stdout.write(`${line}\n`);
      }
      if (writing) process.stdout.write('\n');
    });
    return ExitCode.ok;
  },
};
