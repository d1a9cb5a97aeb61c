import { describe, expect, it } from 'vitest';
import { runFuzz } from '../../fuzz/run-fuzz';

describe('fuzz of the engine and the simulator (small default run)', () => {
  it('finds no crash, no recorded blocked call, no shrinking forbidden set and no runtime/simulator disagreement', () => {
    const figures = runFuzz({ seed: 42, count: 300 });
    expect(figures.failure).toBeNull();
    expect(figures.ruleSets).toBeGreaterThanOrEqual(300);
    expect(figures.compiled).toBeGreaterThan(0);
  });
});
