import { ContentStoreError, contentStoreEnv, openContentStore } from '../../store';
import type { CliCommand } from '../cli-command';
import { ExitCode } from '../cli-command';
import { parseCommandArgs } from '../parse-command-args';
import { reportBadInput } from '../report-bad-input';

const usage = `Usage: toolrail store prune (--session ID | --older-than AGE) [--store SPEC]

Deletes stored conversation content: one session's, or every session whose newest write is older
than AGE (a number with d, h or m: 30d, 12h, 90m). --store is a postgres:// URL, a file: URL or a
directory (default: $${contentStoreEnv}, else .toolrail/content).`;

const unitMs: Record<string, number> = { d: 86_400_000, h: 3_600_000, m: 60_000 };

/** Milliseconds in an age like `30d`, `12h` or `90m`; undefined when unreadable. */
export function parseAge(text: string): number | undefined {
  const match = /^(\d+)([dhm])$/.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * (unitMs[match[2] ?? ''] ?? 0);
}

/** `toolrail store prune`: retention for the content store. */
export const storeCommand: CliCommand = {
  summary: 'prune stored conversation content (one session, or older than an age)',
  async run(argv) {
    const parsed = parseCommandArgs(
      'store',
      argv,
      { session: { type: 'string' }, 'older-than': { type: 'string' }, store: { type: 'string' } },
      usage,
      1,
      1,
    );
    if (!parsed.ok) return parsed.exitCode;
    const [action] = parsed.positionals;
    if (action !== 'prune') return reportBadInput(`toolrail store: unknown action '${action ?? ''}' (expected prune)`);
    const { session, store: spec } = parsed.values;
    const olderThan = parsed.values['older-than'];
    if ((session === undefined) === (olderThan === undefined)) {
      return reportBadInput('toolrail store prune: give exactly one of --session ID or --older-than AGE');
    }
    const ageMs = olderThan === undefined ? undefined : parseAge(olderThan);
    if (olderThan !== undefined && ageMs === undefined) {
      return reportBadInput(`toolrail store prune: --older-than '${olderThan}' is not an age like 30d, 12h or 90m`);
    }
    let store;
    try {
      store = openContentStore(spec);
    } catch (error) {
      if (error instanceof ContentStoreError) return reportBadInput(`toolrail store prune: ${error.message}`);
      throw error;
    }
    try {
      if (session !== undefined) {
        const count = await store.deleteSession(session);
        process.stdout.write(`deleted ${count} item(s) of session ${session} from ${store.description}\n`);
      } else {
        const removed = await store.deleteSessionsOlderThan(new Date(Date.now() - (ageMs ?? 0)));
        process.stdout.write(`deleted ${removed.length} session(s) from ${store.description}\n`);
        for (const id of removed) process.stdout.write(`${id}\n`);
      }
      return ExitCode.ok;
    } catch (error) {
      if (!(error instanceof ContentStoreError)) throw error;
      process.stderr.write(`toolrail store prune: ${error.message}\n`);
      return ExitCode.failure;
    } finally {
      await store.close();
    }
  },
};
