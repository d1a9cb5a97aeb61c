import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { packContentKey, unpackContentKey } from '../../../src/kernel/packed-content-key';
import { storeFingerprint } from '../../../src/kernel/store-fingerprint';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('content keys as history carries them', () => {
  it('packs a SHA-256 key into the base64url of its 32 bytes, and unpacks it back', () => {
    for (const text of ['', 'page 0', 'x'.repeat(10_000)]) {
      const key = sha256(text);
      const packed = packContentKey(key);
      expect(packed).toBe(Buffer.from(key, 'hex').toString('base64url'));
      expect(packed).toHaveLength(43);
      expect(unpackContentKey(packed)).toBe(key);
    }
  });

  it('keeps keys in any other form as they are (hex keys from earlier versions unpack to themselves)', () => {
    const key = sha256('page 1');
    expect(unpackContentKey(key)).toBe(key);
    expect(packContentKey('session-7/record')).toBe('session-7/record');
    expect(packContentKey(key.toUpperCase())).toBe(key.toUpperCase());
    expect(unpackContentKey('not-a-packed-key')).toBe('not-a-packed-key');
  });
});

describe('a content store’s fingerprint', () => {
  it('is the same for the same id and differs between ids, in at most 11 base-36 characters', () => {
    const id = '007cca44-c43a-4494-905b-cd2703ea0096';
    expect(storeFingerprint(id)).toBe(storeFingerprint(id));
    expect(storeFingerprint(id)).toMatch(/^[0-9a-z]{1,11}$/);
    const others = new Set(Array.from({ length: 1_000 }, (_, index) => storeFingerprint(`${id}-${index}`)));
    expect(others.size).toBe(1_000);
    expect(others.has(storeFingerprint(id))).toBe(false);
  });

  it('stays the cyrb53 that recorded sessions and running workers name their stores by', () => {
    // Values of the hash as first written (its constants as doubles): a worker compares these with its own.
    expect(storeFingerprint('0f6a3b2c-1d2e-4f50-8a9b-0c1d2e3f4a5b')).toBe('1h4h41xiuyr');
    expect(storeFingerprint('')).toBe('wvjl67o803');
    expect(storeFingerprint('é漢字🎉')).toBe('lricj70zbo');
  });
});
