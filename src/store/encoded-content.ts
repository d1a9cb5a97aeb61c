import type { Payload, PayloadCodec, WorkflowSerializationContext } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import type { ContentStore } from './content-store';
import { ContentStoreError } from './content-store-error';
import { sha256Hex } from './hash-content';

/**
 * First bytes of content stored through payload codecs: a NUL (no JSON text starts with one) and a
 * name, then the encoded `Payload` (protobuf). Without codecs content is stored as it is.
 */
const encodedPrefix = new TextEncoder().encode('\u0000toolrail/payload\n');

/** Encoding of the payload toolrail hands the codecs: Temporal's for raw bytes. */
const binaryPlain = 'binary/plain';

/**
 * A session's content as toolrail's code reads and writes it: plain bytes in and out, while what
 * reaches the {@link ContentStore} has passed the user's payload codecs (the same ones, in the same
 * order, as the Temporal payloads of client and worker) and is keyed by the SHA-256 of the bytes
 * stored. Without codecs the bytes are stored as they are, so the key is the SHA-256 of the content.
 */
export interface EncodedContent {
  /** The store the bytes go to. */
  readonly store: ContentStore;
  /** Encodes `content` with the codecs and stores it; resolves to its key (the SHA-256 of the bytes stored). */
  put(sessionId: string, content: Uint8Array): Promise<string>;
  /**
   * The content under `key`, decoded. Rejects with a `ContentStoreError` naming the key and the store:
   * `CONTENT_MISSING` / `CONTENT_CORRUPT` from the store, or `CONTENT_UNDECODABLE` when the content
   * was stored without codecs and codecs are configured, or the other way round, or the codecs cannot
   * decode it (other codecs, another key).
   */
  get(sessionId: string, key: string): Promise<Uint8Array>;
  /** Writes the record `name` of the session once, encoded (see `ContentStore.putRecord`). */
  putRecord(sessionId: string, name: string, content: Uint8Array): Promise<boolean>;
  /** The record `name`, decoded, or `undefined` when none was written; rejects as {@link get} does. */
  getRecord(sessionId: string, name: string): Promise<Uint8Array | undefined>;
}

/** Options of {@link encodedContent}. */
export interface EncodedContentOptions {
  /**
   * The payload codecs of the Temporal client or worker, applied in order on write and in reverse
   * on read (as Temporal does). Read each time content is written or read, so a caller may fill the
   * array once its worker is created. Empty or absent: content is stored as it is.
   */
  payloadCodecs?: readonly PayloadCodec[];
  /** Namespace of the sessions, for the codecs' serialization context. Defaults to `default`. */
  namespace?: string;
}

/**
 * The content of `store` through `payloadCodecs`. Each item is one `Payload` (`binary/plain`, the
 * content as its data) encoded by the codecs with the session's workflow serialization context, so
 * a codec keyed by namespace or workflow treats it as it treats the session's own payloads.
 */
export function encodedContent(store: ContentStore, options: EncodedContentOptions = {}): EncodedContent {
  const codecs = options.payloadCodecs ?? [];
  const namespace = options.namespace ?? 'default';
  const contextOf = (sessionId: string): WorkflowSerializationContext => ({
    type: 'workflow',
    namespace,
    workflowId: sessionId,
  });

  const encode = async (sessionId: string, content: Uint8Array): Promise<Uint8Array> => {
    if (codecs.length === 0) return content;
    let payloads: Payload[] = [{ metadata: { encoding: new TextEncoder().encode(binaryPlain) }, data: content }];
    for (const codec of codecs) payloads = await codec.encode(payloads, contextOf(sessionId));
    const [payload] = payloads;
    if (payload === undefined || payloads.length !== 1)
      throw new Error(
        `a payload codec returned ${payloads.length} payloads for 1: codecs must keep the number of payloads`,
      );
    const body = temporal.api.common.v1.Payload.encode(payload).finish();
    const bytes = new Uint8Array(encodedPrefix.length + body.length);
    bytes.set(encodedPrefix);
    bytes.set(body, encodedPrefix.length);
    return bytes;
  };

  const decode = async (sessionId: string, what: string, bytes: Uint8Array): Promise<Uint8Array> => {
    const encoded = startsWith(bytes, encodedPrefix);
    if (codecs.length === 0) {
      if (encoded) throw ContentStoreError.undecodable(store.description, sessionId, what, encodedWithoutCodecs);
      return bytes;
    }
    if (!encoded) throw ContentStoreError.undecodable(store.description, sessionId, what, plainWithCodecs);
    let payloads: Payload[];
    try {
      payloads = [temporal.api.common.v1.Payload.decode(bytes.subarray(encodedPrefix.length))];
      for (const codec of [...codecs].reverse()) payloads = await codec.decode(payloads, contextOf(sessionId));
    } catch (error) {
      throw ContentStoreError.undecodable(store.description, sessionId, what, otherCodecs(error), error);
    }
    const [payload] = payloads;
    const encoding = payload?.metadata?.encoding;
    const decodedEncoding = encoding ? new TextDecoder().decode(encoding) : undefined;
    if (payload?.data == null || decodedEncoding !== binaryPlain) {
      const reason = otherCodecs(`the codecs left it as ${decodedEncoding ?? 'a payload without encoding'}`);
      throw ContentStoreError.undecodable(store.description, sessionId, what, reason);
    }
    return payload.data;
  };

  return {
    store,
    async put(sessionId, content) {
      const bytes = await encode(sessionId, content);
      const key = sha256Hex(bytes);
      await store.put(sessionId, key, bytes);
      return key;
    },
    async get(sessionId, key) {
      return decode(sessionId, key, await store.get(sessionId, key));
    },
    async putRecord(sessionId, name, content) {
      return store.putRecord(sessionId, name, await encode(sessionId, content));
    },
    async getRecord(sessionId, name) {
      const bytes = await store.getRecord(sessionId, name);
      return bytes === undefined ? undefined : decode(sessionId, `record ${JSON.stringify(name)}`, bytes);
    },
  };
}

const encodedWithoutCodecs =
  'it was stored through payload codecs and none are configured here: give this client or worker the codecs ' +
  "its workers use (createWorker's workerOptions.dataConverter.payloadCodecs, the Temporal Client's " +
  'dataConverter, or the CLI\u2019s --codec-module FILE / TOOLRAIL_CODEC_MODULE)';

const plainWithCodecs =
  'it was stored without payload codecs (before they were configured) and codecs are configured here: ' +
  'read it with a client or worker without codecs, or remove the session with `toolrail store prune`';

function otherCodecs(cause: unknown): string {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return `the payload codecs configured here cannot decode it (${reason}): it was written with other codecs or another key; configure those`;
}

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  if (bytes.length < prefix.length) return false;
  for (let index = 0; index < prefix.length; index++) if (bytes[index] !== prefix[index]) return false;
  return true;
}
