import { WorkflowNotFoundError } from '@temporalio/client';
import type { Client } from '@temporalio/client';
import type { ContentStore, StoredSession } from '../store';

/** Name of the record in which a prune keeps when a session closed, for after Temporal forgot it. */
export const closedAtRecord = 'toolrail/closed-at';

/** Options of {@link pruneSessions}: one session, or every closed session older than an age. */
export type PruneSessionsOptions = {
  /** The Temporal client of the sessions' namespace: it is asked which sessions are still open. */
  client: Client;
  store: ContentStore;
  /** List what would be deleted, delete nothing. */
  dryRun?: boolean;
  /** The current time (tests). */
  now?: Date;
} & ({ sessionId: string; olderThanMs?: undefined } | { olderThanMs: number; sessionId?: undefined });

/** A session a prune deleted (or, in a dry run, would delete). */
export interface PrunedSession extends StoredSession {
  /** When it closed: Temporal's close time, or the one an earlier prune recorded; `null` when neither is known. */
  closedAt: Date | null;
}

/** What {@link pruneSessions} did. */
export interface PruneReport {
  /** Deleted (or, in a dry run, to be deleted), oldest close first. */
  pruned: PrunedSession[];
  /**
   * Sessions with content that are still open in Temporal, kept (for `olderThanMs`: those whose
   * newest write is older than the age).
   */
  open: StoredSession[];
  /** With `sessionId`: whether the store holds anything of it. */
  found: boolean;
}

/** How a session stands in Temporal. */
type TemporalState = { open: true } | { open: false; closedAt: Date | null };

/** How many sessions are looked up in Temporal at once. */
const lookupConcurrency = 8;

/**
 * Retention that cannot hurt a live session. Asks Temporal (describe, which is consistent, unlike
 * the visibility list) about each session the store holds, never deletes one that is still open,
 * and ages the others from when they closed: Temporal's close time; for a session Temporal no longer
 * knows (its history passed the namespace's retention), the close time an earlier prune recorded in
 * the store, else the session's newest write (which is never later than its close). A real run
 * records the close time of the closed sessions it keeps. Rejects when Temporal cannot be asked.
 */
export async function pruneSessions(options: PruneSessionsOptions): Promise<PruneReport> {
  const { client, store, dryRun = false } = options;
  const now = options.now ?? new Date();
  const stored = await store.listSessions();
  const candidates =
    options.sessionId === undefined ? stored : stored.filter((session) => session.sessionId === options.sessionId);
  const states = await mapConcurrently(candidates, lookupConcurrency, (session) =>
    temporalState(client, session.sessionId),
  );
  const pruned: PrunedSession[] = [];
  const open: StoredSession[] = [];
  const cutoff = options.olderThanMs === undefined ? undefined : now.getTime() - options.olderThanMs;
  for (const [index, session] of candidates.entries()) {
    const state = states[index] as TemporalState;
    if (state.open) {
      if (cutoff === undefined || session.lastWriteAt.getTime() < cutoff) open.push(session);
      continue;
    }
    const closedAt = state.closedAt ?? (await recordedCloseTime(store, session.sessionId));
    if (cutoff !== undefined && (closedAt ?? session.lastWriteAt).getTime() >= cutoff) {
      if (!dryRun && state.closedAt !== null) await recordCloseTime(store, session.sessionId, state.closedAt);
      continue;
    }
    pruned.push({ ...session, closedAt });
  }
  pruned.sort((a, b) => (a.closedAt ?? a.lastWriteAt).getTime() - (b.closedAt ?? b.lastWriteAt).getTime());
  if (!dryRun) for (const session of pruned) await store.deleteSession(session.sessionId);
  return { pruned, open, found: candidates.length > 0 };
}

/** Whether the session is open, else when it closed (`null`: Temporal does not know the session). */
async function temporalState(client: Client, sessionId: string): Promise<TemporalState> {
  try {
    const described = await client.workflow.getHandle(sessionId).describe();
    if (described.status.name === 'RUNNING') return { open: true };
    return { open: false, closedAt: described.closeTime ?? null };
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return { open: false, closedAt: null };
    throw error;
  }
}

async function recordedCloseTime(store: ContentStore, sessionId: string): Promise<Date | null> {
  const bytes = await store.getRecord(sessionId, closedAtRecord).catch(() => undefined);
  if (bytes === undefined) return null;
  const when = new Date(new TextDecoder().decode(bytes));
  return Number.isNaN(when.getTime()) ? null : when;
}

async function recordCloseTime(store: ContentStore, sessionId: string, closedAt: Date): Promise<void> {
  await store.putRecord(sessionId, closedAtRecord, new TextEncoder().encode(closedAt.toISOString()));
}

/** `work` over `items`, at most `limit` at once; results in order. */
async function mapConcurrently<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    for (let index = next++; index < items.length; index = next++) results[index] = await work(items[index] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
