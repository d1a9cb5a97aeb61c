import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';

/** Encoding of an encrypted payload, and the metadata naming the key it was encrypted with. */
const encryptedEncoding = 'binary/encrypted';
const keyIdMetadata = 'encryption-key-id';
const ivBytes = 12;
const tagBytes = 16;

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (bytes: Uint8Array | null | undefined): string | undefined =>
  bytes == null ? undefined : new TextDecoder().decode(bytes);

/**
 * A payload codec that encrypts every payload with AES-256-GCM (a fresh 96-bit nonce each time; the
 * key id is authenticated with it). It encrypts with `keyId` and decrypts with any key of `keys`,
 * so keys can be rotated; a payload it did not encrypt passes through unchanged.
 */
export class AesGcmCodec implements PayloadCodec {
  readonly #keys: ReadonlyMap<string, Uint8Array>;
  readonly #keyId: string;

  /** @param keys AES-256 keys (32 bytes each) by id. @param keyId the id of the key new payloads are encrypted with. */
  constructor(keys: ReadonlyMap<string, Uint8Array>, keyId: string) {
    for (const [id, key] of keys)
      if (key.byteLength !== 32) throw new Error(`key ${id} is ${key.byteLength} bytes: AES-256 needs 32`);
    if (!keys.has(keyId)) throw new Error(`no key ${keyId} to encrypt with`);
    this.#keys = keys;
    this.#keyId = keyId;
  }

  encode(payloads: Payload[]): Promise<Payload[]> {
    return Promise.resolve(
      payloads.map((payload) => {
        const iv = randomBytes(ivBytes);
        const cipher = createCipheriv('aes-256-gcm', this.#keys.get(this.#keyId) as Uint8Array, iv);
        cipher.setAAD(utf8(this.#keyId));
        const plain = temporal.api.common.v1.Payload.encode(payload).finish();
        const data = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
        return { metadata: { encoding: utf8(encryptedEncoding), [keyIdMetadata]: utf8(this.#keyId) }, data };
      }),
    );
  }

  decode(payloads: Payload[]): Promise<Payload[]> {
    return Promise.resolve(
      payloads.map((payload) => {
        if (text(payload.metadata?.encoding) !== encryptedEncoding) return payload;
        const keyId = text(payload.metadata?.[keyIdMetadata]) ?? '';
        const key = this.#keys.get(keyId);
        if (key === undefined)
          throw new Error(`payload encrypted with key ${JSON.stringify(keyId)}, which this codec does not have`);
        const data = payload.data ?? new Uint8Array();
        const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, ivBytes));
        decipher.setAAD(utf8(keyId));
        decipher.setAuthTag(data.subarray(data.length - tagBytes));
        const plain = Buffer.concat([
          decipher.update(data.subarray(ivBytes, data.length - tagBytes)),
          decipher.final(),
        ]);
        return temporal.api.common.v1.Payload.decode(plain);
      }),
    );
  }
}

/**
 * The codec of the key in `CODEC_KEY` (base64 of 32 random bytes: `openssl rand -base64 32`), with
 * the id `CODEC_KEY_ID` (default `key-1`). Real deployments fetch keys from a key manager.
 */
export function aesGcmCodecFromEnvironment(env: NodeJS.ProcessEnv = process.env): AesGcmCodec {
  const encoded = env.CODEC_KEY;
  if (!encoded) throw new Error('set CODEC_KEY to a base64 AES-256 key (e.g. `openssl rand -base64 32`)');
  const keyId = env.CODEC_KEY_ID || 'key-1';
  return new AesGcmCodec(new Map([[keyId, Buffer.from(encoded, 'base64')]]), keyId);
}
