import type { Payload } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import type { UnreadableClaim } from '../errors';
import { ClaimUnavailableError } from './claim-unavailable-error';
import type { ContentStore } from './content-store';
import { ContentStoreError } from './content-store-error';
import { unreadableClaimPayload } from './unreadable-claim-payload';

/** A claim of toolrail's driver: the session namespace, the content key, and (since claims are decided) its own id. */
export interface ContentClaimData {
  session?: string;
  key?: string;
  id?: string;
}

/**
 * The names of a claim's two write-once records in its session: `stored` (written with the content,
 * so a reader knows the store holds the session's side of the claim) and `read` (the outcome of the
 * claim's first read: every later read, replays included, gives the same).
 */
export function claimRecordNames(id: string): { stored: string; read: string } {
  return { stored: `external-storage-claim ${id} stored`, read: `external-storage-claim ${id} read` };
}

/** What the `read` record holds: the claim was read, or can never be (and why). */
type ClaimOutcome = { read: true } | { unreadable: UnreadableClaim };

/**
 * The payload a claim of toolrail's driver stands for, decided once per claim and the same on every
 * later read (so a session's history replays the same):
 *
 * 1. The claim's first read decides, and writes the outcome to its `read` record: the payload, or,
 *    when the content is missing or corrupt while the claim's `stored` record is there, "never"
 *    ({@link unreadableClaimPayload}, which the session refuses visibly instead of failing its task).
 * 2. A later read follows the record: "never" stays never (content restored afterwards included);
 *    "read" reads the content again, and while it is missing or corrupt the read waits.
 * 3. Waiting is a {@link ClaimUnavailableError} (the workflow task fails, Temporal tries it again):
 *    the store is unavailable, the content of a claim read before is gone, the store holds neither
 *    the content nor the `stored` record (deleted with its session, or another store), or the
 *    claim predates the records (no `id`).
 */
export async function readClaim(store: ContentStore, claimData: ContentClaimData): Promise<Payload> {
  const { session, key, id } = claimData;
  if (!session || !key) {
    return unreadableClaimPayload({
      code: 'CLAIM_MALFORMED',
      message: `the claim ${JSON.stringify(claimData)} names no session or key: toolrail's External Storage did not write it`,
    });
  }
  if (!id) return decodeContent(await waitFor(() => store.get(session, key), 'a claim of an earlier toolrail'), key);
  const claim = { store, session, key, names: claimRecordNames(id) };
  const decided = await waitFor(() => store.getRecord(session, claim.names.read));
  if (decided !== undefined) return follow(claim, decided);
  const first = await readFirst(claim);
  const written = await waitFor(() => store.putRecord(session, claim.names.read, encodeOutcome(first.outcome)));
  if (written) return 'payload' in first ? first.payload : unreadableClaimPayload(first.outcome.unreadable);
  // Another reader decided first: its outcome is the claim's.
  return follow(claim, await waitFor(() => store.getRecord(session, claim.names.read)));
}

/** One claim of a session, with the names of its records. */
interface Claim {
  store: ContentStore;
  session: string;
  key: string;
  names: { stored: string; read: string };
}

/** A claim's first read: the payload, or why it can never be read. */
type FirstRead = { outcome: { read: true }; payload: Payload } | { outcome: { unreadable: UnreadableClaim } };

/** The first read's outcome; throws a {@link ClaimUnavailableError} when it must wait. */
async function readFirst({ store, session, key, names }: Claim): Promise<FirstRead> {
  try {
    return { outcome: { read: true }, payload: decodeContent(await store.get(session, key), key) };
  } catch (error) {
    const never = neverReadable(error, session, key);
    if (never === undefined) throw waiting(error);
    const stored = await waitFor(() => store.getRecord(session, names.stored));
    if (stored === undefined) throw waiting(error, 'the store holds nothing of this claim');
    return { outcome: { unreadable: never } };
  }
}

/** The outcome the `read` record holds, followed: the payload (read again) or the same unreadable claim. */
async function follow({ store, session, key }: Claim, record: Uint8Array | undefined): Promise<Payload> {
  const outcome = decodeOutcome(record);
  if ('unreadable' in outcome) return unreadableClaimPayload(outcome.unreadable);
  return decodeContent(await waitFor(() => store.get(session, key), 'the session read it before'), key);
}

/** The claim's content as a payload; bytes that are no payload are content that can never be read. */
function decodeContent(bytes: Uint8Array, key: string): Payload {
  try {
    return temporal.api.common.v1.Payload.decode(bytes);
  } catch (error) {
    throw new ContentStoreError({
      code: 'CONTENT_CORRUPT',
      message: `Content ${key} is not a Temporal payload (${String(error)})`,
      key,
    });
  }
}

/** Why a failed read can never succeed (missing or corrupt content), or `undefined` when it may. */
function neverReadable(error: unknown, session: string, key: string): UnreadableClaim | undefined {
  if (!(error instanceof ContentStoreError)) return undefined;
  const content = `its content (key ${key} of session ${JSON.stringify(session)})`;
  if (error.code === 'CONTENT_MISSING')
    return {
      code: 'CONTENT_MISSING',
      message: `${content} is not in the content store: it was deleted before a worker read it`,
    };
  if (error.code === 'CONTENT_CORRUPT')
    return { code: 'CONTENT_CORRUPT', message: `${content} in the content store is not what was written` };
  return undefined;
}

/** `read()`, or a {@link ClaimUnavailableError} (the task is tried again) when it fails. */
async function waitFor<T>(read: () => Promise<T>, reason?: string): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw waiting(error, reason);
  }
}

function waiting(cause: unknown, reason?: string): ClaimUnavailableError {
  return new ClaimUnavailableError({ cause, ...(reason === undefined ? {} : { reason }) });
}

function encodeOutcome(outcome: ClaimOutcome): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(outcome));
}

function decodeOutcome(bytes: Uint8Array | undefined): ClaimOutcome {
  if (bytes === undefined) throw waiting(new Error('the record of its first read is gone'));
  const outcome = JSON.parse(new TextDecoder().decode(bytes)) as ClaimOutcome;
  return 'unreadable' in outcome ? { unreadable: outcome.unreadable } : { read: true };
}
