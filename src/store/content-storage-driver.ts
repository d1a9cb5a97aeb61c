import { ExternalStorage, StorageDriverClaim } from '@temporalio/common';
import type { Payload, StorageDriver } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import type { ContentStore } from './content-store';
import { sha256Hex } from './hash-content';

/** Payloads of no identifiable workflow are stored under this session id. */
const unattributedSession = '_payloads';

/**
 * A driver for Temporal's External Storage backed by a content store: a payload is stored under the
 * workflow (session) it belongs to, keyed by the SHA-256 of its encoded bytes, so retention of a
 * session removes its payloads too.
 */
export function createContentStorageDriver(store: ContentStore): StorageDriver {
  return {
    name: 'toolrail-content-store',
    type: 'toolrail.content-store',
    store: ({ target }, payloads) =>
      Promise.all(
        payloads.map(async (payload) => {
          const session = target?.kind === 'workflow' && target.id ? target.id : unattributedSession;
          const bytes = temporal.api.common.v1.Payload.encode(payload).finish();
          const key = sha256Hex(bytes);
          await store.put(session, key, bytes);
          return new StorageDriverClaim({ session, key });
        }),
      ),
    retrieve: (_context, claims) =>
      Promise.all(
        claims.map(async ({ claimData }): Promise<Payload> => {
          const bytes = await store.get(claimData['session'] ?? unattributedSession, claimData['key'] ?? '');
          return temporal.api.common.v1.Payload.decode(bytes);
        }),
      ),
  };
}

/**
 * Temporal External Storage over a content store: payloads larger than `thresholdBytes` (a big first
 * message, a big user message) travel as a claim, and their bytes stay in the store. Give the same
 * store to the client's and the workers' data converters. `thresholdBytes` defaults to 262 144 (256 KiB).
 */
export function createExternalStorage(store: ContentStore, { thresholdBytes = 262_144 } = {}): ExternalStorage {
  return new ExternalStorage({ drivers: [createContentStorageDriver(store)], payloadSizeThreshold: thresholdBytes });
}
