import type { SessionHandle } from '../../src/client/session-handle';
import type { TranscriptEntry } from '../../src/session/session-views';
import { pollUntil } from './poll-until';

/**
 * Waits until `count` runs of the session have ended (its transcript has that many `run-end`
 * entries) and resolves to the transcript. The status alone cannot say it: between a run's start
 * and its first model call the session is `idle` with the previous run's end.
 */
export function untilRunsEnded(
  session: SessionHandle,
  count: number,
  { timeoutMs = 30_000 }: { timeoutMs?: number } = {},
): Promise<TranscriptEntry[]> {
  return pollUntil(
    () => session.transcript(),
    (entries) => entries.filter((entry) => entry.kind === 'run-end').length >= count,
    { timeoutMs },
  );
}
