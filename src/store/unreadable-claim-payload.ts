import type { Payload } from '@temporalio/common';
import { encode } from '@temporalio/common/lib/encoding';
import { unreadableClaimEncoding } from '../errors';
import type { UnreadableClaim } from '../errors';

/**
 * The payload toolrail's External Storage hands over for a claim it can never read: encoding
 * `binary/toolrail-unreadable-claim`, the {@link UnreadableClaim} as JSON. It passes payload codecs
 * that decode only their own encoding, and toolrail's workflow payload converter turns it into an
 * undecodable-payload marker naming the cause.
 */
export function unreadableClaimPayload(claim: UnreadableClaim): Payload {
  return {
    metadata: { encoding: encode(unreadableClaimEncoding) },
    data: encode(JSON.stringify({ code: claim.code, message: claim.message })),
  };
}
