import { DefaultPayloadConverter } from '@temporalio/common';
import type { ConverterHint, Payload, SerializationContext } from '@temporalio/common';
import { decode } from '@temporalio/common/lib/encoding';

/** The key of the value that stands for a payload the converter could not decode. */
export const undecodableMarker = '__toolrailUndecodable';

/** What a handler receives instead of a payload whose encoding or bytes cannot be decoded. */
export interface UndecodablePayload {
  [undecodableMarker]: { encoding: string; bytes: number; error: string };
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
      const marker: UndecodablePayload = {
        [undecodableMarker]: {
          encoding: raw ? decode(raw) : '(none)',
          bytes: payload.data?.length ?? 0,
          error: error instanceof Error ? error.message : String(error),
        },
      };
      return marker as T;
    }
  }
}

/** The converter toolrail's workflow bundles load through `payloadConverterPath`. */
export const payloadConverter = new TolerantPayloadConverter();
