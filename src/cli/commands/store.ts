import { Client, Connection } from '@temporalio/client';
import { pruneSessions } from '../../client';
import type { PruneReport } from '../../client';
import { ContentStoreError, contentStoreEnv, openContentStore } from '../../store';
import type { ContentStore } from '../../store';
import type { CliCommand } from '../cli-command';
import { ExitCode } from '../cli-command';
import { connectionFlags, connectionFlagsHelp } from '../connection/connection-flags';
import { resolveConnection } from '../connection/resolve-connection';
import { parseCommandArgs } from '../parse-command-args';
import { reportBadInput } from '../report-bad-input';

const usage = `Usage: toolrail store prune (--session ID | --older-than AGE) [--dry-run] [--store SPEC] [connection flags]

Deletes stored conversation content of sessions that have ended: one session's, or that of every
session that closed more than AGE ago (a number with d, h or m: 30d, 12h, 90m). It asks Temporal
(the namespace of the connection flags) which sessions are still open and never deletes those: a
session given with --session that is still open is refused, naming it. A session Temporal no longer
knows is aged by the close time an earlier prune recorded, else by its newest write.
  --dry-run      list what would be deleted, and how many bytes, and delete nothing
  --store SPEC   a postgres:// URL, a file: URL or a directory (default: $${contentStoreEnv}, else .toolrail/content)

Exit code 0 when done, 1 when a session was refused, was not found in the store, or Temporal could
not be asked (nothing is deleted then).

${connectionFlagsHelp}`;

const unitMs: Record<string, number> = { d: 86_400_000, h: 3_600_000, m: 60_000 };

/** Milliseconds in an age like `30d`, `12h` or `90m`; undefined when unreadable. */
export function parseAge(text: string): number | undefined {
  const match = /^(\d+)([dhm])$/.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * (unitMs[match[2] ?? ''] ?? 0);
}

/** `toolrail store prune`: retention for the content store. */
export const storeCommand: CliCommand = {
  summary: 'prune stored conversation content of ended sessions (one session, or closed longer than an age)',
  async run(argv) {
    const parsed = parseCommandArgs(
      'store',
      argv,
      {
        ...connectionFlags,
        session: { type: 'string' },
        'older-than': { type: 'string' },
        store: { type: 'string' },
        'dry-run': { type: 'boolean' },
      },
      usage,
      1,
      1,
    );
    if (!parsed.ok) return parsed.exitCode;
    const [action] = parsed.positionals;
    if (action !== 'prune') return reportBadInput(`toolrail store: unknown action '${action ?? ''}' (expected prune)`);
    const { session, store: spec } = parsed.values;
    const olderThan = parsed.values['older-than'];
    const dryRun = parsed.values['dry-run'] === true;
    if ((session === undefined) === (olderThan === undefined)) {
      return reportBadInput('toolrail store prune: give exactly one of --session ID or --older-than AGE');
    }
    const ageMs = olderThan === undefined ? undefined : parseAge(olderThan);
    if (olderThan !== undefined && ageMs === undefined) {
      return reportBadInput(`toolrail store prune: --older-than '${olderThan}' is not an age like 30d, 12h or 90m`);
    }
    let store: ContentStore;
    try {
      store = openContentStore(spec);
    } catch (error) {
      if (error instanceof ContentStoreError) return reportBadInput(`toolrail store prune: ${error.message}`);
      throw error;
    }
    const settings = resolveConnection(parsed.values);
    let connection: Connection | undefined;
    try {
      connection = await Connection.connect({
        address: settings.address,
        ...(settings.tls !== undefined ? { tls: settings.tls } : {}),
        ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
        ...(settings.metadata ? { metadata: settings.metadata } : {}),
        connectTimeout: 5_000,
      });
      const client = new Client({ connection, namespace: settings.namespace });
      const scope = session === undefined ? { olderThanMs: ageMs ?? 0 } : { sessionId: session };
      const report = await pruneSessions({ client, store, dryRun, ...scope });
      return printReport(report, { session, dryRun, store: store.description, namespace: settings.namespace });
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      const asking =
        error instanceof ContentStoreError
          ? ''
          : ` (could not ask Temporal at ${settings.address} which sessions are open)`;
      process.stderr.write(`toolrail store prune: nothing was deleted${asking}: ${why}\n`);
      return ExitCode.failure;
    } finally {
      await connection?.close();
      await store.close();
    }
  },
};

/** Prints what was (or would be) deleted and what was kept open; a given session that is open or absent is an error. */
function printReport(
  report: PruneReport,
  {
    session,
    dryRun,
    store,
    namespace,
  }: { session: string | undefined; dryRun: boolean; store: string; namespace: string },
): number {
  if (session !== undefined && report.open.length > 0) {
    process.stderr.write(
      `toolrail store prune: refused: session ${session} is still open in namespace ${namespace}; end it first (nothing was deleted)\n`,
    );
    return ExitCode.failure;
  }
  if (session !== undefined && !report.found) {
    process.stderr.write(`toolrail store prune: nothing is stored for session ${session} in ${store}\n`);
    return ExitCode.failure;
  }
  const bytes = report.pruned.reduce((sum, pruned) => sum + pruned.bytes, 0);
  const lines = [
    `${dryRun ? 'would delete' : 'deleted'} ${report.pruned.length} session(s), ${bytes} bytes, from ${store}`,
  ];
  for (const pruned of report.pruned) {
    const when =
      pruned.closedAt === null
        ? `last written ${pruned.lastWriteAt.toISOString()}`
        : `closed ${pruned.closedAt.toISOString()}`;
    lines.push(`  ${pruned.sessionId}  ${pruned.items} item(s)  ${pruned.bytes} bytes  ${when}`);
  }
  if (report.open.length > 0) {
    lines.push(
      `kept ${report.open.length} session(s) still open in namespace ${namespace} (retention counts from when a session closes):`,
      ...report.open.map((open) => `  ${open.sessionId}`),
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  return ExitCode.ok;
}
