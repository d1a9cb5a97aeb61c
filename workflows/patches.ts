import { patched } from '@temporalio/workflow';

/**
 * The changes of the session workflow that histories recorded before them replay without, by the
 * id of the `patched()` marker each one wrote. Each entry says what a history without it does.
 */
export type SessionPatch =
  /** The first run checks its start input (before: taken as it came). */
  | 'toolrail-start-input-checked'
  /** `ToolrailStatus` holds the listed status (before: `thinking` and `running_tools` apart). */
  | 'listed-status-attribute'
  /** The catalog is looked up only when the run has none (before: every turn). */
  | 'catalog-on-change'
  /** A new session records its content store's identity (before: none recorded). */
  | 'toolrail-store-identity'
  /** The session waits for a failing content store (before: the workflow task failed). */
  | 'toolrail-wait-for-store'
  /** A timed-out run-once call's outcome is read from its record (before: reported as a timeout). */
  | 'recover-lost-tool-completions'
  /**
   * The counts and the last tool in the search attributes move with the listed status (upserted
   * when it moves and before continue-as-new; before: whenever one of them changed).
   */
  | 'search-attributes-on-status-move';

/**
 * The one marker a run of this version writes for every {@link SessionPatch}, and for what came
 * with it (the Temporal UI brought up to date once per workflow task): a new run records it
 * alone, not a marker per patch and the `TemporalChangeVersion` upsert the SDK adds to each (about
 * 150 bytes of history and 2 events apiece at each run's start). A history recorded before it has
 * the marker of its own version ({@link sessionPatchesOf202611}) or of each patch it had, and
 * replays by them.
 */
const sessionPatchesOf202612 = 'toolrail-session-patches-2026-12';

/** The marker of the runs of 2026-11: every {@link SessionPatch} but those in {@link laterThan202611}. */
const sessionPatchesOf202611 = 'toolrail-session-patches-2026-11';

/** The patches that came after {@link sessionPatchesOf202611}: a run of 2026-11 has none of them. */
const laterThan202611: ReadonlySet<SessionPatch> = new Set(['search-attributes-on-status-move']);

/**
 * Whether this run has the change `patch` marks: every run this version starts has them all (one
 * marker, {@link sessionPatchesOf202612}, asked first in each run, see {@link currentPatches}); a
 * run recorded before answers by the marker of its version, or by the change's own marker, as
 * `patched(patch)` did.
 */
export function patchedIn(patch: SessionPatch): boolean {
  if (laterThan202611.has(patch)) return patched(sessionPatchesOf202612);
  return currentPatches() || patched(patch);
}

/**
 * Whether this run was started by a version of 2026-11 or later: its history holds
 * {@link sessionPatchesOf202612} or {@link sessionPatchesOf202611}. The session workflow asks first
 * thing in every run, so the marker is the run's first command in a new run and a replay decides
 * the same. (The SDK does not remember a marker found missing in a replay: a run of 2026-11 that
 * a worker replays and then goes on live with records the newer marker too, where it next asks; it
 * has every change of 2026-11 either way, and what came later is decided once, at its start.)
 */
export function currentPatches(): boolean {
  return patched(sessionPatchesOf202612) || patched(sessionPatchesOf202611);
}

/**
 * Whether this run looks the catalog up only when it has none (histories before it look it up every
 * turn). `agentSession` asks first, before any activity: a patch first asked for after a local
 * activity may be asked in another workflow task on replay than it was recorded in.
 */
export const catalogOnChange = (): boolean => patchedIn('catalog-on-change');
