import { describe, expect, it } from 'vitest';
import { InvalidMaxToolConcurrencyError } from '../../../src/tools/errors/invalid-max-tool-concurrency-error';
import { readMaxToolConcurrency } from '../../../src/tools/read-max-tool-concurrency';

describe('readMaxToolConcurrency', () => {
  it('defaults to 10 when the variable is unset or empty', () => {
    expect(readMaxToolConcurrency({})).toBe(10);
    expect(readMaxToolConcurrency({ TOOLRAIL_MAX_TOOL_CONCURRENCY: ' ' })).toBe(10);
  });

  it('reads a positive integer', () => {
    expect(readMaxToolConcurrency({ TOOLRAIL_MAX_TOOL_CONCURRENCY: '4' })).toBe(4);
  });

  it.each(['0', '-2', '1.5', 'ten', '1e3'])('refuses %j loudly instead of guessing', (value) => {
    expect(() => readMaxToolConcurrency({ TOOLRAIL_MAX_TOOL_CONCURRENCY: value })).toThrow(
      InvalidMaxToolConcurrencyError,
    );
  });
});
