import { createHash } from 'node:crypto';
import type { ContentRef } from './content-ref';
import { previewChars, previewOf } from '../text';

/** SHA-256 of `bytes`, lower-case hex (64 characters). */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Where a named record is stored: the SHA-256 of its name's UTF-8 (any name fits a file name or a key column). */
export function recordDigest(name: string): string {
  return sha256Hex(new TextEncoder().encode(name));
}

/**
 * The UTF-8 bytes of `text` and the reference they are stored under (preview: first {@link
 * previewChars} characters).
 */
export function contentRefOf(text: string): { ref: ContentRef; bytes: Uint8Array } {
  const bytes = new TextEncoder().encode(text);
  return { ref: { key: sha256Hex(bytes), bytes: bytes.byteLength, preview: previewOf(text, previewChars) }, bytes };
}

/** First bytes of every stored record: the format, then the SHA-256 of the record's bytes and a newline. */
const recordHeaderPrefix = 'toolrail-record sha256=';
const recordHeaderBytes = recordHeaderPrefix.length + 64 + 1;

/** A record as a store keeps it: a header with the SHA-256 of `bytes`, then `bytes` (so a read can check it). */
export function sealRecord(bytes: Uint8Array): Uint8Array {
  const header = new TextEncoder().encode(`${recordHeaderPrefix}${sha256Hex(bytes)}\n`);
  const sealed = new Uint8Array(header.byteLength + bytes.byteLength);
  sealed.set(header, 0);
  sealed.set(bytes, header.byteLength);
  return sealed;
}

/**
 * The bytes of a record as {@link sealRecord} stored them, or the hash they should have had and
 * what they hash to when they changed (or the header is gone).
 */
export function openRecord(
  stored: Uint8Array,
): { bytes: Uint8Array } | { corrupt: { expected: string; actual: string } } {
  const header = new TextDecoder().decode(stored.subarray(0, recordHeaderBytes));
  const expected =
    header.startsWith(recordHeaderPrefix) && header.endsWith('\n') ? header.slice(recordHeaderPrefix.length, -1) : '';
  const bytes = stored.subarray(expected === '' ? 0 : recordHeaderBytes);
  const actual = sha256Hex(bytes);
  return actual === expected ? { bytes } : { corrupt: { expected: expected || '(no header)', actual } };
}
