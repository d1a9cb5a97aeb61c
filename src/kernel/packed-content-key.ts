/**
 * Content keys (SHA-256 in lower-case hex, 64 characters) as the per-turn activities' inputs and
 * results carry them through history: the same 32 bytes in base64url, 43 characters. Five keys
 * cross history in a turn, so this saves about 105 bytes a turn. Pure (no `Buffer`): the workflow
 * packs and unpacks them too, a few times a turn, so both go by table. A key in any other form (hex,
 * as earlier versions wrote it) reads as it is.
 */

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const hexDigits = '0123456789abcdef';
/** The value of each character code: a hex digit's (lower case), then a base64url digit's; -1 for others. */
const hexValue = valuesOf(hexDigits);
const base64Value = valuesOf(alphabet);

function valuesOf(digits: string): Int8Array {
  const values = new Int8Array(128).fill(-1);
  for (let index = 0; index < digits.length; index++) values[digits.charCodeAt(index)] = index;
  return values;
}

/** The value of the digit at `index` of `text` in `values`, or -1. */
function digit(values: Int8Array, text: string, index: number): number {
  const code = text.charCodeAt(index);
  return code < 128 ? (values[code] as number) : -1;
}

/** `key` in base64url when it is a SHA-256 in hex; any other key as it is. */
export function packContentKey(key: string): string {
  if (key.length !== 64) return key;
  let packed = '';
  // 32 bytes: ten groups of three (six hex digits, four characters), then two bytes (four hex digits, three characters).
  for (let at = 0; at < 64; at += 6) {
    let group = 0;
    for (let index = at; index < at + 6; index++) {
      const value = index < 64 ? digit(hexValue, key, index) : 0;
      if (value < 0) return key;
      group = (group << 4) | value;
    }
    const characters = at + 6 <= 64 ? 4 : 3;
    for (let index = 0; index < characters; index++) packed += alphabet[(group >> (18 - 6 * index)) & 63];
  }
  return packed;
}

/** A packed key as the store knows it (hex); a key in any other form as it is. */
export function unpackContentKey(key: string): string {
  if (key.length !== 43) return key;
  let hex = '';
  for (let at = 0; at < 43; at += 4) {
    let group = 0;
    for (let index = at; index < at + 4; index++) {
      const value = index < 43 ? digit(base64Value, key, index) : 0;
      if (value < 0) return key;
      group = (group << 6) | value;
    }
    // Six hex digits a group; the last group holds two bytes (four digits).
    for (let index = 0; index < (at + 4 <= 43 ? 6 : 4); index++) hex += hexDigits[(group >> (20 - 4 * index)) & 15];
  }
  return hex;
}
