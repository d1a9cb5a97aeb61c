import { defaultPayloadConverter } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { inputArguments, inputOf } from '../../../src/dispatch/input-arguments';

/** Temporal's External Storage threshold: a payload over it is offloaded when a workflow task completes. */
const thresholdBytes = 256 * 1024;

/** Each argument's payload size, as the worker's payload converter writes it. */
function payloadBytes(args: unknown[]): number[] {
  return args.map((arg) => defaultPayloadConverter.toPayload(arg).data?.length ?? 0);
}

describe('inputArguments', () => {
  it('passes a short input as itself', () => {
    const input = { sessionId: 's', messages: [{ role: 'user', text: 'hi' }] };
    expect(inputArguments(input)).toEqual([input]);
    expect(inputOf(inputArguments(input))).toEqual(input);
  });

  it.each([
    ['ASCII', 'x'],
    ['quotes and backslashes', '"\\'],
    ['three-byte characters', '€'],
    ['emoji split across parts', '🎉'],
    ['control characters', '\u0001\n'],
  ])('splits a 1 MB input of %s into payloads under 256 KiB each, and joins it back whole', (_name, unit) => {
    const text = unit.repeat(Math.ceil(1_000_000 / unit.length));
    const input = { sessionId: 'session-1', messages: [{ role: 'user', text }] };
    const args = inputArguments(input);
    expect(args.length).toBeGreaterThan(2);
    expect(Math.max(...payloadBytes(args))).toBeLessThan(thresholdBytes);
    // Through the payload converter, as the activity receives it.
    const received = args.map((arg) => defaultPayloadConverter.fromPayload(defaultPayloadConverter.toPayload(arg)));
    expect(inputOf(received as typeof args)).toEqual(input);
  });

  it('refuses parts that arrived incomplete', () => {
    const args = inputArguments({ text: 'x'.repeat(200_000) });
    expect(() => inputOf(args.slice(0, -1) as typeof args)).toThrow(/sent in 4 parts arrived in 3/);
  });
});
