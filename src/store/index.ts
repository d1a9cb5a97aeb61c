export type { ContentRef } from './content-ref';
export { previewChars } from './content-ref';
export type { ContentStore, StoreIdentity, StoredSession } from './content-store';
export { readStoreIdentity } from './content-store';
export type { ContentStoreErrorCode } from './content-store-error';
export { ContentStoreError, redactSecrets } from './content-store-error';
export type { EncodedContent, EncodedContentOptions } from './encoded-content';
export { encodedContent } from './encoded-content';
export { DirectoryContentStore, sessionDirectoryName } from './directory-content-store';
export { contentRefOf, sha256Hex } from './hash-content';
export { contentStoreEnv, defaultContentDirectory, openContentStore } from './open-content-store';
export { PostgresContentStore, contentTable, describePostgres, identityTable } from './postgres-content-store';
export { ExternalStorageUnusableError, checkClaimEncoding } from './check-claim-encoding';
export {
  contentDriverName,
  contentStorageDriver,
  createExternalStorage,
  payloadsNamespace,
} from './content-storage-driver';
export { ClaimUnavailableError } from './claim-unavailable-error';
