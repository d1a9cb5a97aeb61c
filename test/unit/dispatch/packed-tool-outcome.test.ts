import { describe, expect, it } from 'vitest';
import { packToolOutcome, unpackToolOutcome } from '../../../src/dispatch/packed-tool-outcome';
import type { ToolErrorOutcome, ToolResultOutcome } from '../../../src/dispatch/tool-outcome';

const call = { callId: 'call_3_0', toolName: 'read_page' };
const result: ToolResultOutcome = { type: 'tool-result', callId: 'call_3_0', toolName: 'read_page', output: null };
const error: ToolErrorOutcome = {
  type: 'tool-error',
  callId: 'call_3_0',
  toolName: 'read_page',
  code: 'EXECUTION_ERROR',
  message: 'The page is gone.',
  retryable: false,
};

describe('packed tool outcomes', () => {
  it('a result whose output stayed in the store packs to its type alone and unpacks to itself', () => {
    expect(packToolOutcome(result, call)).toEqual({ type: 'tool-result' });
    expect(unpackToolOutcome(packToolOutcome(result, call), call)).toEqual(result);
  });

  it('unpacks in the order outcomes are built, so what is rendered of them reads as before', () => {
    expect(JSON.stringify(unpackToolOutcome(packToolOutcome(result, call), call))).toBe(JSON.stringify(result));
    expect(JSON.stringify(unpackToolOutcome(packToolOutcome(error, call), call))).toBe(JSON.stringify(error));
  });

  it('keeps an output the rules read, and an error its code and message (errors get no output)', () => {
    const read = { ...result, output: { lines: 3 }, offloadedTo: 'ab'.repeat(32) };
    expect(packToolOutcome(read, call)).toEqual({
      type: 'tool-result',
      output: { lines: 3 },
      offloadedTo: 'ab'.repeat(32),
    });
    expect(unpackToolOutcome(packToolOutcome(read, call), call)).toEqual(read);
    expect(packToolOutcome(error, call)).toEqual({
      type: 'tool-error',
      code: 'EXECUTION_ERROR',
      message: 'The page is gone.',
      retryable: false,
    });
    expect(unpackToolOutcome(packToolOutcome(error, call), call)).toEqual(error);
  });

  it('keeps a call id or tool that is not the scheduled call’s', () => {
    const other = { ...result, toolName: 'read_pages' };
    expect(packToolOutcome(other, call)).toEqual({ type: 'tool-result', toolName: 'read_pages' });
    expect(unpackToolOutcome(packToolOutcome(other, call), call)).toEqual(other);
  });

  it('reads an outcome in its full form (as earlier versions returned it) as it is', () => {
    expect(unpackToolOutcome(result, call)).toEqual(result);
    expect(unpackToolOutcome(error, call)).toEqual(error);
  });
});
