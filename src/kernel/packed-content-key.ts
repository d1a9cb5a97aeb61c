/**
 * Content keys (SHA-256 in lower-case hex, 64 characters) as the per-turn activities' inputs and
 * results carry them through history: the same 32 bytes in base64url, 43 characters. Five keys
 * cross history in a turn, so this saves about 105 bytes a turn. Pure (no `Buffer`): the workflow
 * packs and unpacks them too. A key in any other form (hex, as earlier versions wrote it) reads
 * as it is.
 */

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const hexKey = /^[0-9a-f]{64}$/;
const packedKey = /^[A-Za-z0-9_-]{43}$/;

/** `key` in base64url when it is a SHA-256 in hex; any other key as it is. */
export function packContentKey(key: string): string {
  if (!hexKey.test(key)) return key;
  let packed = '';
  // 32 bytes: ten groups of three (four characters each), then two bytes (three characters).
  for (let at = 0; at < 64; at += 6) {
    const group = Number.parseInt(key.slice(at, at + 6).padEnd(6, '0'), 16);
    const characters = at + 6 <= 64 ? 4 : 3;
    for (let index = 0; index < characters; index++) packed += alphabet[(group >> (18 - 6 * index)) & 63];
  }
  return packed;
}

/** A packed key as the store knows it (hex); a key in any other form as it is. */
export function unpackContentKey(key: string): string {
  if (!packedKey.test(key)) return key;
  let hex = '';
  for (let at = 0; at < 43; at += 4) {
    const characters = key.slice(at, at + 4);
    let group = 0;
    for (let index = 0; index < 4; index++)
      group = (group << 6) | (index < characters.length ? alphabet.indexOf(characters[index] as string) : 0);
    hex += group.toString(16).padStart(6, '0');
  }
  return hex.slice(0, 64);
}
