import { DefaultPayloadConverter } from '@temporalio/common';
import type { ConverterHint, Payload, SerializationContext } from '@temporalio/common';
import { decode } from '@temporalio/common/lib/encoding';
import { unreadableClaimEncoding } from '../errors';
import type { UnreadableClaim } from '../errors';

/** The key of the value that stands for a payload the converter could not decode. */
export const undecodableMarker = '__toolrailUndecodable';

/**
 * What a handler receives instead of a payload whose encoding or bytes cannot be decoded; `claim`
 * when the payload stands for an External Storage claim that can never be read (and why).
 */
export interface UndecodablePayload {
  [undecodableMarker]: { encoding: string; bytes: number; error: string; claim?: UnreadableClaim };
}

/** Whether `value` is the marker of an undecodable payload. */
export function isUndecodable(value: unknown): value is UndecodablePayload {
  return typeof value === 'object' && value !== null && undecodableMarker in value;
}

/** The encoding of an undecodable payload, if `value` is one (or holds one at its top level). */
export function undecodableEncoding(value: unknown): string | undefined {
  if (isUndecodable(value)) return value[undecodableMarker].encoding;
  if (typeof value === 'object' && value !== null) {
    for (const field of Object.values(value)) if (isUndecodable(field)) return field[undecodableMarker].encoding;
  }
  return undefined;
}

/**
 * Why a payload could not be taken, if `value` is the marker of one (or holds one at its top level):
 * `the payload could not be decoded (encoding …)`, or, for a claim that can never be read,
 * `the payload is an External Storage claim that cannot be read (CODE): why`. `what` names the payload.
 */
export function undecodableProblem(value: unknown, what = 'the payload'): string | undefined {
  const marker = isUndecodable(value)
    ? value
    : typeof value === 'object' && value !== null
      ? Object.values(value).find(isUndecodable)
      : undefined;
  if (marker === undefined) return undefined;
  const { encoding, claim } = marker[undecodableMarker];
  return claim === undefined
    ? `${what} could not be decoded (encoding ${encoding})`
    : `${what} is an External Storage claim that cannot be read (${claim.code}): ${claim.message}`;
}

/**
 * The default payload converter, except that a payload it cannot decode (unknown encoding,
 * missing metadata, malformed JSON) becomes an {@link UndecodablePayload} marker instead of
 * throwing, so one bad signal, update or query never fails a session's workflow tasks.
 * Deterministic and free of Node built-ins: it runs in the workflow sandbox.
 */
export class TolerantPayloadConverter extends DefaultPayloadConverter {
  override fromPayload<T>(payload: Payload, context?: SerializationContext, hint?: ConverterHint<T>): T {
    try {
      return super.fromPayload(payload, context, hint);
    } catch (error) {
      const raw = payload.metadata?.['encoding'];
      const encoding = raw ? decode(raw) : '(none)';
      const claim = encoding === unreadableClaimEncoding ? unreadableClaimOf(payload) : undefined;
      const marker: UndecodablePayload = {
        [undecodableMarker]: {
          encoding,
          bytes: payload.data?.length ?? 0,
          error: claim?.message ?? (error instanceof Error ? error.message : String(error)),
          ...(claim === undefined ? {} : { claim }),
        },
      };
      return marker as T;
    }
  }
}

/** The {@link UnreadableClaim} a payload of toolrail's External Storage holds (see `unreadableClaimEncoding`). */
function unreadableClaimOf(payload: Payload): UnreadableClaim {
  try {
    const { code, message } = JSON.parse(decode(payload.data ?? new Uint8Array())) as UnreadableClaim;
    return { code, message };
  } catch {
    return { code: 'CLAIM_MALFORMED', message: "toolrail's External Storage could not say why" };
  }
}

/** The converter toolrail's workflow bundles load through `payloadConverterPath`. */
export const payloadConverter = new TolerantPayloadConverter();
