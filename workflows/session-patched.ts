import { patched } from '@temporalio/workflow';

/**
 * The id of a change to the session workflow made after a release: `toolrail-` and what changed,
 * e.g. `toolrail-catalog-on-change`. None yet: toolrail 1.0 is the version every history starts from.
 */
export type SessionPatch = `toolrail-${string}`;

/**
 * Whether this run has the change `patch`, for a change made after a release that changes the
 * commands the workflow issues (an activity, a timer, a marker, a search attribute upsert, their
 * order): a run of a session that a released version started replays without it, and goes on
 * without it; a run this version starts has it (the SDK records a marker the first time it is
 * asked, and a replay answers from the history). Steps:
 *
 * 1. Branch on `sessionPatched('toolrail-<change>')`: the new code when true, the released code when false.
 * 2. Record the replay histories again under a new name, keeping the released version's recordings
 *    (`test/replay/record-histories.ts --suffix <change>`): both must replay.
 * 3. Once no session a version without the change started can still be open, call `deprecatePatch`
 *    in its place; in the release after that, remove it and its recordings.
 */
export function sessionPatched(patch: SessionPatch): boolean {
  return patched(patch);
}
