import type { Payload, StorageDriver, StorageDriverClaim as Claim } from '@temporalio/common';
import { ExternalStorage, StorageDriverClaim } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { checkClaimEncoding } from './check-claim-encoding';
import type { ContentStore } from './content-store';
import { sha256Hex } from './hash-content';

/** Session namespace for payloads whose target workflow is unknown. */
export const payloadsNamespace = '_payloads';

/** Name of the driver in Temporal's claims: a reader must register a driver of the same name. */
export const contentDriverName = 'toolrail-content';

/**
 * A Temporal External Storage driver keeping each offloaded payload (protobuf-encoded) in a
 * {@link ContentStore}, keyed by its SHA-256 under the target workflow's id (else `_payloads`).
 * Claims are `{ session, key }`.
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
          await store.put(session, key, bytes);
          return new StorageDriverClaim({ session, key });
        }),
      );
    },
    async retrieve(_context, claims: Claim[]): Promise<Payload[]> {
      return Promise.all(
        claims.map(async (claim) => {
          const { session, key } = claim.claimData;
          if (session === undefined || key === undefined) {
            throw new Error(
              `Claim ${JSON.stringify(claim.claimData)} has no session or key: it was not written by ${contentDriverName}.`,
            );
          }
          return temporal.api.common.v1.Payload.decode(await store.get(session, key));
        }),
      );
    },
  };
}

/**
 * Temporal External Storage offloading payloads larger than `thresholdBytes` (default: Temporal's,
 * 256 KiB) to `store`; pass it as `dataConverter.externalStorage` on client and worker. Throws an
 * `ExternalStorageUnusableError` when this install cannot write a claim (two copies of `protobufjs`
 * for Temporal's packages), so that a client or worker that could not take a big payload is never made.
 */
export function createExternalStorage(store: ContentStore, options: { thresholdBytes?: number } = {}): ExternalStorage {
  checkClaimEncoding(contentDriverName);
  return new ExternalStorage({
    drivers: [contentStorageDriver(store)],
    ...(options.thresholdBytes === undefined ? {} : { payloadSizeThreshold: options.thresholdBytes }),
  });
}
