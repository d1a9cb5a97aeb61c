import { describe, expect, it } from 'vitest';
import type { CallModelInput, CallModelResult } from '../../../activities/types';
import type { PreparedCall } from '../../../src/dispatch/prepared-call';
import { unpackPreparedCall } from '../../../src/dispatch/packed-prepared-call';
import { packContentKey } from '../../../src/kernel/packed-content-key';
import type { ConversationLog } from '../../../src/session/conversation-log';
import { unpackModelCallResult } from '../../../workflows/turn-activities';

const key = (digit: string): string => digit.repeat(64);
const input: CallModelInput = { turn: 2, settings: { provider: 'scripted', model: 'pages' } };
const toolCalls = [
  { id: 'call_2_0', name: 'read_page', args: { page: 2 } },
  { id: 'call_2_1', name: 'read_page', args: { page: 3 } },
];
const prepared = (id: string, page: number): PreparedCall =>
  unpackPreparedCall({ type: 'prepared-call', callId: id, toolName: 'read_page', input: { page } });
/** The log the model call's input named: five messages, 2,409 bytes. */
const log: ConversationLog = { head: null, tail: [], count: 5, bytes: 2_409 };
/**
 * The result as this version's model call returns it for a usual turn: everything the workflow
 * knows left out (the finish reason that follows from the calls, the preview they give, the size of
 * the whole log shown), the keys in base64url.
 */
const packed: CallModelResult = {
  response: { toolCalls },
  assistant: { key: 'qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqo', bytes: 89 },
  sealed: { key: 'u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7s', bytes: 1_239 },
};
/** What the workflow reads of it: the same as earlier versions returned whole. */
const whole = {
  response: { toolCalls, finishReason: 'tool-calls' },
  assistant: {
    role: 'assistant',
    key: key('a'),
    bytes: 89,
    preview: '→ read_page({"page":2}) → read_page({"page":3})',
  },
  shown: { messages: 5, previewed: 0, omitted: 0, bytes: 2_409, budgetBytes: 1_048_576 },
  prepared: [prepared('call_2_0', 2), prepared('call_2_1', 3)],
  sealed: { key: key('b'), bytes: 1_239, preview: '' },
};

describe('the model call’s result as the workflow reads it', () => {
  it('fills in a usual turn’s result: the finish reason, each call from the model’s call, the keys in hex, the role and preview, the whole log shown, the zero counts and budget, the empty preview', () => {
    expect(packContentKey(key('a'))).toBe(packed.assistant.key);
    expect(unpackModelCallResult(packed, input, log)).toEqual(whole);
  });

  it('keeps what differs from the usual: another finish reason, a preview of the text, a part of the log shown', () => {
    const answered: CallModelResult = {
      response: { text: 'Done.', toolCalls: [], finishReason: 'length' },
      assistant: { key: key('c'), bytes: 50 },
      shown: { messages: 3, omitted: 2, bytes: 700 },
    };
    const read = unpackModelCallResult(answered, input, log);
    expect(read.response.finishReason).toBe('length');
    expect(read.assistant).toEqual({ role: 'assistant', key: key('c'), bytes: 50, preview: 'Done.' });
    expect(read.shown).toEqual({ messages: 3, previewed: 0, omitted: 2, bytes: 700, budgetBytes: 1_048_576 });
    expect(
      unpackModelCallResult({ ...answered, response: { text: 'Done.', toolCalls: [] } }, input, log).response,
    ).toEqual({
      text: 'Done.',
      toolCalls: [],
      finishReason: 'stop',
    });
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
    expect(unpackModelCallResult(earlier as CallModelResult, input, log)).toEqual(whole);
    expect(unpackModelCallResult(whole as CallModelResult, input, log)).toEqual(whole);
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
    expect(unpackModelCallResult(mixed, input, log).prepared).toEqual([prepared('call_2_0', 2), refused]);
    const cutOff = { ...packed, response: { toolCalls, finishReason: 'length' as const }, prepared: [] };
    const read = unpackModelCallResult(cutOff, input, log);
    expect(read.prepared).toEqual([]);
    // Its calls are not stored with it: the message's usual preview is empty.
    expect(read.assistant.preview).toBe('');
  });
});
