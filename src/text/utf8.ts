/**
 * The UTF-8 size of `text` in bytes, counted without encoding it (pure: runs in the workflow
 * sandbox). A lone surrogate counts as the 3 bytes of the replacement character it becomes.
 */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(index + 1))) {
      bytes += 4;
      index += 1;
    } else bytes += 3;
  }
  return bytes;
}

/** The longest prefix of `text` whose UTF-8 size is at most `maxBytes`; never splits a character. */
export function truncateUtf8(text: string, maxBytes: number): string {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    const pair = code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(index + 1));
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : pair ? 4 : 3;
    if (bytes + size > maxBytes) return text.slice(0, index);
    bytes += size;
    if (pair) index += 1;
  }
  return text;
}

/**
 * Longest preview of a stored content or message, in characters: what its reference carries for
 * transcripts and the UI.
 */
export const previewChars = 200;

/**
 * The first `maxChars` characters of `text`, never ending in half a surrogate pair, as a string of
 * its own: a plain slice would keep all of `text` in memory for as long as the preview is kept (a
 * cache of references, the feed's window).
 */
export function previewOf(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const code = text.charCodeAt(maxChars - 1);
  const part = text.slice(0, code >= 0xd800 && code <= 0xdbff ? maxChars - 1 : maxChars);
  return JSON.parse(JSON.stringify(part)) as string;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
