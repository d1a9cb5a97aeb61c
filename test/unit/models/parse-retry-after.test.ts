import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../../src/models/model-errors';

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-11-21T08:00:00Z');

  it('reads retry-after in seconds', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after': '12' }), now)).toBe(12_000);
    expect(parseRetryAfter(new Headers({ 'retry-after': '1.5' }), now)).toBe(1_500);
  });

  it('prefers retry-after-ms when both are present', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '1900', 'retry-after': '2' }), now)).toBe(1_900);
  });

  it('reads retry-after as an HTTP date relative to now', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Fri, 21 Nov 2025 08:00:30 GMT' }), now)).toBe(30_000);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Fri, 21 Nov 2025 07:59:00 GMT' }), now)).toBe(0);
  });

  it('ignores missing, negative and unparsable values', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter(new Headers(), now)).toBeUndefined();
    expect(parseRetryAfter(new Headers({ 'retry-after': '-5' }), now)).toBeUndefined();
    expect(parseRetryAfter(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
  });
});
