import { describe, expect, it } from 'vitest';
import { modelErrorFromHttpResponse, parseRetryAfter } from '../../../src/models/model-errors';

const map = (status: number, headers: Record<string, string> = {}) =>
  modelErrorFromHttpResponse({ provider: 'openai', status, headers: new Headers(headers), message: `${status}` });

describe('modelErrorFromHttpResponse', () => {
  it.each([
    [400, 'BAD_REQUEST', false],
    [401, 'AUTHENTICATION', false],
    [402, 'PERMISSION_DENIED', false],
    [403, 'PERMISSION_DENIED', false],
    [404, 'NOT_FOUND', false],
    [408, 'TIMEOUT', true],
    [409, 'SERVER_ERROR', true],
    [413, 'BAD_REQUEST', false],
    [422, 'BAD_REQUEST', false],
    [429, 'RATE_LIMITED', true],
    [500, 'SERVER_ERROR', true],
    [503, 'SERVER_ERROR', true],
    [529, 'SERVER_ERROR', true],
  ])('maps HTTP %i to %s (retryable: %s)', (status, code, retryable) => {
    expect(map(status)).toMatchObject({ code, retryable, status });
  });

  it('lets x-should-retry override the default retryability', () => {
    expect(map(500, { 'x-should-retry': 'false' }).retryable).toBe(false);
    expect(map(400, { 'x-should-retry': 'true' }).retryable).toBe(true);
  });

  it('carries the retry-after of any status that sends one', () => {
    expect(map(503, { 'retry-after': '3' }).retryAfterMs).toBe(3_000);
    expect(map(429)).not.toHaveProperty('retryAfterMs');
  });
});

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
