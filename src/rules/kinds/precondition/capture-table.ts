/** What a precondition remembers of the latest completed call of its prior tool (for one resource). */
export interface Capture {
  /** Canonical JSON of the bound resource value, or `null` when the rule binds no resource. */
  readonly key: string | null;
  /** Index of the first `with_output` condition that failed, -1 when all held. */
  readonly failed: number;
  /** Short text of the value the failed condition saw (for messages), '' when none failed. */
  readonly got: string;
  /** When it was captured: the session's count of completed calls at that time. */
  readonly seq: number;
}

/**
 * What one precondition remembers, per bound resource: its captures in 16 buckets by a hash of the
 * resource key, so that finding or replacing one copies a bucket, not the whole table. Plain JSON.
 */
export type CaptureTable = readonly (readonly Capture[])[];

const bucketCount = 16;

function bucketOf(key: string | null): number {
  if (key === null) return 0;
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % bucketCount;
}

/** A table with nothing captured. */
export function emptyCaptureTable(): CaptureTable {
  return Array.from({ length: bucketCount }, () => []);
}

/** The capture for a resource key (`null` when the rule binds none), or `undefined`. */
export function findCapture(table: CaptureTable, key: string | null): Capture | undefined {
  const bucket = table[bucketOf(key)] ?? [];
  for (let i = bucket.length - 1; i >= 0; i--) if (bucket[i]?.key === key) return bucket[i];
  return undefined;
}

/** Every capture of the table, oldest first. */
export function allCaptures(table: CaptureTable): Capture[] {
  return table.flat().sort((a, b) => a.seq - b.seq);
}

/**
 * The table with `capture` in place of any earlier one for the same key; when more than `max` keys
 * would be held, the least recently captured one is forgotten.
 */
export function withCapture(table: CaptureTable, capture: Capture, max: number): CaptureTable {
  const index = bucketOf(capture.key);
  const bucket = table[index] ?? [];
  const next = table.slice();
  const position = bucket.findIndex((entry) => entry.key === capture.key);
  const updated = bucket.slice();
  if (position >= 0) updated[position] = capture;
  else updated.push(capture);
  next[index] = updated;
  if (position >= 0) return next;
  let count = 0;
  for (const entries of next) count += entries.length;
  if (count <= max) return next;
  let oldest: { bucket: number; seq: number } | null = null;
  next.forEach((entries, b) => {
    for (const entry of entries) if (oldest === null || entry.seq < oldest.seq) oldest = { bucket: b, seq: entry.seq };
  });
  if (oldest === null) return next;
  const { bucket: evictFrom, seq } = oldest;
  next[evictFrom] = (next[evictFrom] ?? []).filter((entry) => entry.seq !== seq);
  return next;
}
