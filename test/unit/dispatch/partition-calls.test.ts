import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { partitionCalls } from '../../../src/dispatch/partition-calls';

interface Call {
  readonly name: string;
  readonly concurrencySafe: boolean;
}

const safe = (name: string): Call => ({ name, concurrencySafe: true });
const unsafe = (name: string): Call => ({ name, concurrencySafe: false });
const names = (batches: ReturnType<typeof partitionCalls<Call>>) =>
  batches.map((batch) => `${batch.kind}:${batch.calls.map((call) => call.name).join(',')}`);

describe('partitionCalls', () => {
  it('splits [search_A, search_B, write_C, search_D, search_E] into three batches in that order', () => {
    const batches = partitionCalls([
      safe('search_A'),
      safe('search_B'),
      unsafe('write_C'),
      safe('search_D'),
      safe('search_E'),
    ]);
    expect(names(batches)).toEqual(['concurrent:search_A,search_B', 'serial:write_C', 'concurrent:search_D,search_E']);
  });

  it('caps 50 safe calls at 10 per batch by default', () => {
    const calls = Array.from({ length: 50 }, (_, index) => safe(`read_${index}`));
    const batches = partitionCalls(calls);
    expect(batches.map((batch) => batch.calls.length)).toEqual([10, 10, 10, 10, 10]);
    expect(batches.flatMap((batch) => batch.calls)).toEqual(calls);
  });

  it('respects a configured cap', () => {
    const calls = Array.from({ length: 50 }, (_, index) => safe(`read_${index}`));
    const sizes = partitionCalls(calls, { maxConcurrency: 7 }).map((batch) => batch.calls.length);
    expect(sizes).toEqual([7, 7, 7, 7, 7, 7, 7, 1]);
  });

  it('gives every unsafe call a batch of its own, even next to another unsafe call', () => {
    expect(names(partitionCalls([unsafe('a'), unsafe('b'), safe('c')]))).toEqual([
      'serial:a',
      'serial:b',
      'concurrent:c',
    ]);
  });

  it('treats a call without a literal true as unsafe', () => {
    const odd = { name: 'odd', concurrencySafe: 'yes' as unknown as boolean };
    expect(names(partitionCalls([safe('a'), odd, safe('b')]))).toEqual(['concurrent:a', 'serial:odd', 'concurrent:b']);
  });

  it('cuts a batch before a call whose verdict depends on an earlier call of it', () => {
    const calls = [safe('a'), safe('b'), safe('c'), safe('d')];
    const batches = partitionCalls(calls, { dependsOn: (earlier, later) => earlier === 0 && later === 2 });
    expect(names(batches)).toEqual(['concurrent:a,b', 'concurrent:c,d']);
  });

  it('treats a throwing dependsOn as a dependency', () => {
    const batches = partitionCalls([safe('a'), safe('b')], {
      dependsOn: () => {
        throw new Error('rule engine failed');
      },
    });
    expect(names(batches)).toEqual(['concurrent:a', 'concurrent:b']);
  });

  it('returns no batches for no calls', () => {
    expect(partitionCalls([])).toEqual([]);
  });

  it.each([0, -1, 1.5, Number.NaN, Infinity])('refuses maxConcurrency %s', (maxConcurrency) => {
    expect(() => partitionCalls([safe('a')], { maxConcurrency })).toThrow(RangeError);
  });

  it('keeps order, bounds and safety for any mix of calls', () => {
    fc.assert(
      fc.property(
        fc.array(fc.boolean(), { maxLength: 60 }),
        fc.integer({ min: 1, max: 12 }),
        fc.func(fc.boolean()),
        (flags, maxConcurrency, depends) => {
          const calls = flags.map((flag, index) => ({ name: String(index), concurrencySafe: flag }));
          const dependsOn = (earlier: number, later: number) => depends(earlier, later);
          const batches = partitionCalls(calls, { maxConcurrency, dependsOn });
          expect(batches.flatMap((batch) => batch.calls)).toEqual(calls);
          for (const batch of batches) {
            if (batch.kind === 'serial') {
              expect(batch.calls).toHaveLength(1);
              continue;
            }
            expect(batch.calls.length).toBeLessThanOrEqual(maxConcurrency);
            expect(batch.calls.every((call) => call.concurrencySafe)).toBe(true);
            const indices = batch.calls.map((call) => Number(call.name));
            for (const later of indices) {
              for (const earlier of indices.filter((index) => index < later)) {
                expect(dependsOn(earlier, later)).toBe(false);
              }
            }
          }
        },
      ),
    );
  });
});
