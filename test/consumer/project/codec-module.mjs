// A codec module as a user of the installed package writes one (plain JavaScript, node:crypto):
// AES-256-GCM over each payload, the key derived from a passphrase for this test only.
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';

const key = scryptSync('consumer test passphrase', 'toolrail-consumer', 32);
const encrypted = 'binary/encrypted';
const text = (bytes) => (bytes == null ? undefined : Buffer.from(bytes).toString('utf8'));

/** The payload as JSON (metadata and data in base64), encrypted with a fresh nonce. */
function encrypt(payload) {
  const plain = JSON.stringify({
    metadata: Object.fromEntries(
      Object.entries(payload.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v).toString('base64')]),
    ),
    data: Buffer.from(payload.data ?? []).toString('base64'),
  });
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return { metadata: { encoding: Buffer.from(encrypted) }, data: Buffer.concat([iv, body, cipher.getAuthTag()]) };
}

function decrypt(payload) {
  if (text(payload.metadata?.encoding) !== encrypted) return payload;
  const data = Buffer.from(payload.data);
  const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12));
  decipher.setAuthTag(data.subarray(data.length - 16));
  const plain = Buffer.concat([decipher.update(data.subarray(12, data.length - 16)), decipher.final()]).toString(
    'utf8',
  );
  const json = JSON.parse(plain);
  return {
    metadata: Object.fromEntries(Object.entries(json.metadata).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
    data: Buffer.from(json.data, 'base64'),
  };
}

export const payloadCodecs = [
  { encode: async (payloads) => payloads.map(encrypt), decode: async (payloads) => payloads.map(decrypt) },
];
