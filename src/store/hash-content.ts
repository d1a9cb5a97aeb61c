import { createHash } from 'node:crypto';

/** The SHA-256 of `bytes`, lower-case hex: the key content is stored under. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
