import { randomUUID } from 'node:crypto';
import type { Payload, StorageDriver, StorageDriverClaim as Claim } from '@temporalio/common';
import { ExternalStorage, StorageDriverClaim } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { checkClaimEncoding } from './check-claim-encoding';
import type { ContentStore } from './content-store';
import { sha256Hex } from './hash-content';
import { claimRecordNames, readClaim } from './read-claim';
import { unreadableClaimPayload } from './unreadable-claim-payload';

/** Session namespace for payloads whose target workflow is unknown. */
export const payloadsNamespace = '_payloads';

/** Name of the driver in Temporal's claims: a reader must register a driver of the same name. */
export const contentDriverName = 'toolrail-content';

/** What a claim's `stored` record holds: that it exists is what counts. */
const storedRecord = new TextEncoder().encode('stored');

/**
 * A Temporal External Storage driver keeping each offloaded payload (protobuf-encoded) in a
 * {@link ContentStore}, keyed by its SHA-256 under the target workflow's id (else `_payloads`),
 * with a `stored` record of the claim beside it. Claims are `{ session, key, id }`. A claim's first
 * read decides whether it can be read, for good (see `readClaim`): content missing or corrupt then
 * reads as an unreadable-claim payload, the same on every later read; an unavailable store throws
 * a `ClaimUnavailableError`.
 */
export function contentStorageDriver(store: ContentStore): StorageDriver {
  return {
    name: contentDriverName,
    type: 'toolrail.content-store',
    async store(context, payloads) {
      const session = context.target?.id || payloadsNamespace;
      return Promise.all(
        payloads.map(async (payload) => {
          const bytes = temporal.api.common.v1.Payload.encode(payload).finish();
          const key = sha256Hex(bytes);
          const id = randomUUID();
          await store.put(session, key, bytes);
          await store.putRecord(session, claimRecordNames(id).stored, storedRecord);
          return new StorageDriverClaim({ session, key, id });
        }),
      );
    },
    retrieve(_context, claims: Claim[]): Promise<Payload[]> {
      return Promise.all(claims.map((claim) => readClaim(store, claim.claimData)));
    },
  };
}

/**
 * Temporal External Storage offloading payloads larger than `thresholdBytes` (default: Temporal's,
 * 256 KiB) to `store`; pass it as `dataConverter.externalStorage` on client and worker. Throws an
 * `ExternalStorageUnusableError` when this install cannot write a claim (two copies of `protobufjs`
 * for Temporal's packages), so that a client or worker that could not take a big payload is never made.
 * A claim of another driver (a client with External Storage of its own) reads as an unreadable-claim
 * payload naming that driver, instead of failing the worker's workflow task at every try.
 */
export function createExternalStorage(store: ContentStore, options: { thresholdBytes?: number } = {}): ExternalStorage {
  checkClaimEncoding(contentDriverName);
  return new ContentExternalStorage({
    drivers: [contentStorageDriver(store)],
    ...(options.thresholdBytes === undefined ? {} : { payloadSizeThreshold: options.thresholdBytes }),
  });
}

/** External Storage whose one driver is toolrail's, and whose claims of any other driver read as unreadable. */
class ContentExternalStorage extends ExternalStorage {
  override getDriver(name: string): StorageDriver | null {
    return super.getDriver(name) ?? unknownDriver(name);
  }
}

/**
 * The stand-in for a driver this External Storage does not have: it stores nothing and reads every
 * claim as unreadable.
 */
function unknownDriver(name: string): StorageDriver {
  const message = `it names External Storage driver ${JSON.stringify(name)}, which toolrail's External Storage does not have (its driver is ${JSON.stringify(contentDriverName)}): send it inline, or from a client whose External Storage is toolrail's (createExternalStorage on the session's content store)`;
  return {
    name,
    type: 'toolrail.unknown-driver',
    store: () => Promise.reject(new Error(`toolrail's External Storage has no driver ${JSON.stringify(name)}`)),
    retrieve: (_context, claims) =>
      Promise.resolve(claims.map(() => unreadableClaimPayload({ code: 'DRIVER_UNKNOWN', message }))),
  };
}
