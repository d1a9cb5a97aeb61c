import { describe, expect, it } from 'vitest';
import { resolveSessionLimits } from '../../../src/session/session-input';

describe('resolveSessionLimits', () => {
  it('closes a non-interactive session when it goes idle', () => {
    expect(resolveSessionLimits(undefined, undefined, false).closeWhenIdle).toBe(true);
  });

  it('keeps an interactive session open, also when interactive is left out', () => {
    expect(resolveSessionLimits({}, undefined, true).closeWhenIdle).toBe(false);
    expect(resolveSessionLimits({}, undefined, undefined).closeWhenIdle).toBe(false);
  });

  it('lets an explicit closeWhenIdle win over the default', () => {
    expect(resolveSessionLimits({ closeWhenIdle: false }, undefined, false).closeWhenIdle).toBe(false);
    expect(resolveSessionLimits({ closeWhenIdle: true }, undefined, true).closeWhenIdle).toBe(true);
  });
});
