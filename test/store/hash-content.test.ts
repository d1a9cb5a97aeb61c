import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { previewChars } from '../../src/store/content-ref';
import { contentRefOf, openRecord, sealRecord, sha256Hex } from '../../src/store/hash-content';

it('keys content by the SHA-256 of its UTF-8 bytes', () => {
  const { ref } = contentRefOf('é');
  expect(ref.key).toBe(
    createHash('sha256')
      .update(Buffer.from([0xc3, 0xa9]))
      .digest('hex'),
  );
  expect(ref.bytes).toBe(2);
  expect(sha256Hex(new Uint8Array())).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
});

it('previews the first characters without splitting a surrogate pair', () => {
  const text = 'a'.repeat(previewChars - 1) + '🎉' + 'b';
  const { ref } = contentRefOf(text);
  expect(ref.preview).toBe('a'.repeat(previewChars - 1));
  expect(contentRefOf('short').ref.preview).toBe('short');
});

it('seals a record with the hash of its bytes and opens it only while they match', () => {
  const bytes = new TextEncoder().encode('{"executed":{"outcome":"refunded"}}');
  const sealed = sealRecord(bytes);
  expect(openRecord(sealed)).toEqual({ bytes });
  const tampered = sealed.slice();
  tampered[tampered.length - 3] = 'X'.charCodeAt(0);
  expect(openRecord(tampered)).toMatchObject({ corrupt: { expected: sha256Hex(bytes) } });
  // A record without its header (written by hand, or cut short) is never taken at its word.
  expect(openRecord(bytes)).toMatchObject({ corrupt: { expected: '(no header)' } });
});
