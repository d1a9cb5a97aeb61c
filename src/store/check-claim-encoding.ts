import path from 'node:path';
import { StorageDriverClaim } from '@temporalio/common';
import { decodeReferencePayload, encodeReferencePayload } from '@temporalio/common/lib/internal-non-workflow';
import { ToolrailError } from '../errors';

/** Whether this process already wrote and read a claim: the check runs once. */
let claimsWork = false;

/**
 * Raised when Temporal's External Storage cannot write or read a claim in this install: most often
 * two copies of `protobufjs`, one for `@temporalio/common` and one for `@temporalio/proto`. Names
 * the copies and the fix.
 */
export class ExternalStorageUnusableError extends ToolrailError {
  static override readonly brand = Symbol.for('toolrail.error.EXTERNAL_STORAGE_UNUSABLE');
  declare readonly code: 'EXTERNAL_STORAGE_UNUSABLE';
  /** Where `@temporalio/common` and `@temporalio/proto` load `protobufjs` from (absolute paths). */
  readonly protobufRuntimes: { readonly common: string; readonly proto: string };

  constructor({ protobufRuntimes, cause }: { protobufRuntimes: { common: string; proto: string }; cause: unknown }) {
    const error = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
    const split = protobufRuntimes.common !== protobufRuntimes.proto;
    super({
      code: 'EXTERNAL_STORAGE_UNUSABLE',
      message: split
        ? [
            `Temporal's External Storage cannot write or read a claim in this install (${error}): @temporalio/common`,
            `loads protobufjs from ${protobufRuntimes.common} and @temporalio/proto from ${protobufRuntimes.proto},`,
            'two copies, and a message type built by one is not a Type to the other. Install one copy for both: add',
            '"protobufjs": "^8.7.1" to the dependencies of your app (npm then puts it at the top of node_modules,',
            'where every Temporal package finds it), install again, and check that `npm ls protobufjs` shows the',
            'Temporal packages\' copies as "deduped".',
          ].join(' ')
        : `Temporal's External Storage cannot write or read a claim in this install (${error}); @temporalio/common and @temporalio/proto both load protobufjs from ${protobufRuntimes.common}.`,
      cause,
    });
    this.name = 'ExternalStorageUnusableError';
    this.protobufRuntimes = protobufRuntimes;
  }
}

/**
 * Writes and reads one claim with the SDK's own helpers (`encodeReferencePayload`,
 * `decodeReferencePayload`), the code External Storage runs for every payload it offloads, so that a
 * client or worker that could not take a payload over the threshold fails when it is made, not
 * in the middle of a session (a client's start or update, every workflow task of a worker). Throws
 * an {@link ExternalStorageUnusableError}; runs once per process.
 */
export function checkClaimEncoding(driverName: string): void {
  if (claimsWork) return;
  try {
    const claim = new StorageDriverClaim({ session: 'check', key: 'check' });
    const decoded = decodeReferencePayload(encodeReferencePayload({ driverName, claim, sizeBytes: 1 }));
    if (decoded.driverName !== driverName) throw new Error(`the claim read back names driver ${decoded.driverName}`);
  } catch (cause) {
    throw new ExternalStorageUnusableError({ protobufRuntimes: protobufRuntimes(), cause });
  }
  claimsWork = true;
}

/** Where `@temporalio/common` and `@temporalio/proto` resolve `protobufjs` from. */
function protobufRuntimes(): { common: string; proto: string } {
  const from = (name: string): string => {
    try {
      const directory = path.dirname(require.resolve(`${name}/package.json`));
      return path.dirname(require.resolve('protobufjs/light', { paths: [directory] }));
    } catch (error) {
      return `(not found: ${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
    }
  };
  return { common: from('@temporalio/common'), proto: from('@temporalio/proto') };
}
