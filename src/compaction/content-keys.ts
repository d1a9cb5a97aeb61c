// A content key (a SHA-256 in lower-case hex, 64 characters) as history carries it: the same 32
// bytes in base64url, 43 characters. Deterministic and free of Node built-ins (no Buffer).

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const hexKey = /^[0-9a-f]{64}$/;
const base64urlKey = /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;

/** `key` in base64url when it is a hex SHA-256; any other string as it is. */
export function compactContentKey(key: string): string {
  if (!hexKey.test(key)) return key;
  let bits = 0;
  let bitCount = 0;
  let compact = '';
  for (let index = 0; index < key.length; index += 2) {
    bits = (bits << 8) | Number.parseInt(key.slice(index, index + 2), 16);
    bitCount += 8;
    while (bitCount >= 6) {
      bitCount -= 6;
      compact += alphabet[(bits >> bitCount) & 63];
    }
    bits &= (1 << bitCount) - 1;
  }
  // 256 bits leave 4: the last character holds them, padded with zeros.
  return compact + alphabet[(bits << (6 - bitCount)) & 63];
}

/** The hex SHA-256 of a key {@link compactContentKey} made; any other string as it is. */
export function expandContentKey(key: string): string {
  if (!base64urlKey.test(key)) return key;
  let bits = 0;
  let bitCount = 0;
  let hex = '';
  for (const character of key) {
    bits = (bits << 6) | alphabet.indexOf(character);
    bitCount += 6;
    if (bitCount >= 8) {
      bitCount -= 8;
      hex += ((bits >> bitCount) & 255).toString(16).padStart(2, '0');
      bits &= (1 << bitCount) - 1;
    }
  }
  return hex;
}
