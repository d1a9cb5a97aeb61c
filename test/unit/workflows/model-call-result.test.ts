import { describe, expect, it } from 'vitest';
import type { CallModelInput, CallModelResult } from '../../../activities/types';
import type { PreparedCall } from '../../../src/dispatch/prepared-call';
import { unpackPreparedCall } from '../../../src/dispatch/packed-prepared-call';
import { unpackModelCallResult } from '../../../workflows/session';

const key = (digit: string): string => digit.repeat(64);
const input: CallModelInput = { turn: 2, settings: { provider: 'scripted', model: 'pages' } };
const toolCalls = [
  { id: 'call_2_0', name: 'read_page', args: { page: 2 } },
  { id: 'call_2_1', name: 'read_page', args: { page: 3 } },
];
const prepared = (id: string, page: number): PreparedCall =>
  unpackPreparedCall({ type: 'prepared-call', callId: id, toolName: 'read_page', input: { page } });
/** The result as this version's model call returns it for a usual turn: everything the workflow knows left out. */
const packed: CallModelResult = {
  response: { toolCalls, finishReason: 'tool-calls' },
  assistant: { key: key('a'), bytes: 89, preview: '→ read_page({"page":2}) → read_page({"page":3})' },
  shown: { messages: 5, bytes: 2_409 },
  sealed: { key: key('b'), bytes: 1_239 },
};
/** What the workflow reads of it: the same as earlier versions returned whole. */
const whole = {
  response: packed.response,
  assistant: { role: 'assistant', key: key('a'), bytes: 89, preview: packed.assistant.preview },
  shown: { messages: 5, previewed: 0, omitted: 0, bytes: 2_409, budgetBytes: 1_048_576 },
  prepared: [prepared('call_2_0', 2), prepared('call_2_1', 3)],
  sealed: { key: key('b'), bytes: 1_239, preview: '' },
};

describe('the model call’s result as the workflow reads it', () => {
  it('fills in a usual turn’s result: each call from the model’s call, the role, the zero counts and budget, the empty preview', () => {
    expect(unpackModelCallResult(packed, input)).toEqual(whole);
  });

  it('reads a result in its full form (as earlier versions returned it) as it is', () => {
    const earlier = {
      ...whole,
      prepared: whole.prepared.map(({ type, callId, toolName, input: args }) => ({
        type,
        callId,
        toolName,
        input: args,
      })),
    };
    expect(unpackModelCallResult(earlier as CallModelResult, input)).toEqual(whole);
    expect(unpackModelCallResult(whole as CallModelResult, input)).toEqual(whole);
  });

  it('keeps the calls’ list when one is not as the model made it, and a response whose calls do not run has none', () => {
    const refused = {
      type: 'tool-error',
      callId: 'call_2_1',
      toolName: 'read_page',
      code: 'UNKNOWN_TOOL',
      message: 'No.',
    } as const;
    const mixed = { ...packed, prepared: [{ type: 'prepared-call' as const }, refused] };
    expect(unpackModelCallResult(mixed, input).prepared).toEqual([prepared('call_2_0', 2), refused]);
    const cutOff = { ...packed, response: { toolCalls, finishReason: 'length' as const }, prepared: [] };
    expect(unpackModelCallResult(cutOff, input).prepared).toEqual([]);
  });
});
