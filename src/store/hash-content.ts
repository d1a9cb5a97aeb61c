import { createHash } from 'node:crypto';
import type { ContentRef } from './content-ref';
import { previewChars } from './content-ref';

/** SHA-256 of `bytes`, lower-case hex (64 characters). */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Where a named record is stored: the SHA-256 of its name's UTF-8 (any name fits a file name or a key column). */
export function recordDigest(name: string): string {
  return sha256Hex(new TextEncoder().encode(name));
}

/** The first `max` UTF-16 code units of `text`, one fewer if that would split a surrogate pair. */
function previewOf(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? max - 1 : max;
  return text.slice(0, end);
}

/** The UTF-8 bytes of `text` and the reference they are stored under (preview: first {@link previewChars} characters). */
export function contentRefOf(text: string): { ref: ContentRef; bytes: Uint8Array } {
  const bytes = new TextEncoder().encode(text);
  return { ref: { key: sha256Hex(bytes), bytes: bytes.byteLength, preview: previewOf(text, previewChars) }, bytes };
}
