import { describe, expect, it } from 'vitest';
import { toAnthropicMessages } from '../../../src/models/anthropic-messages-model';

describe('toAnthropicMessages', () => {
  it('puts the results of parallel calls in one user message, before a user message that arrived after them', () => {
    const wire = toAnthropicMessages([
      { role: 'user', text: 'Refund both orders.' },
      {
        role: 'assistant',
        toolCalls: [
          { id: 'toolu_a', name: 'refund_order', args: { orderId: 'A' } },
          { id: 'toolu_b', name: 'refund_order', args: { orderId: 'B' } },
        ],
      },
      { role: 'tool', callId: 'toolu_a', toolName: 'refund_order', content: 'refunded', isError: false },
      { role: 'tool', callId: 'toolu_b', toolName: 'refund_order', content: 'cancelled', isError: true },
      { role: 'user', text: 'Stop, only A.' },
    ]);
    expect(wire).toEqual([
      { role: 'user', content: 'Refund both orders.' },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'toolu_a', name: 'refund_order', input: { orderId: 'A' } },
          { type: 'tool_use', id: 'toolu_b', name: 'refund_order', input: { orderId: 'B' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_a', content: 'refunded' },
          { type: 'tool_result', tool_use_id: 'toolu_b', content: 'cancelled', is_error: true },
          { type: 'text', text: 'Stop, only A.' },
        ],
      },
    ]);
  });

  it('drops empty text and empty assistant turns, merging the user turns around them', () => {
    expect(
      toAnthropicMessages([
        { role: 'user', text: 'one' },
        { role: 'assistant', text: '', toolCalls: [] },
        { role: 'user', text: '' },
        { role: 'user', text: 'two' },
      ]),
    ).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
      },
    ]);
  });

  it('omits the content of an empty tool result and sends non-object arguments as {}', () => {
    expect(
      toAnthropicMessages([
        { role: 'assistant', toolCalls: [{ id: 't1', name: 'list_queues', args: '["oops"' }] },
        { role: 'tool', callId: 't1', toolName: 'list_queues', content: '', isError: false },
      ]),
    ).toEqual([
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'list_queues', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1' }] },
    ]);
  });

  it('parses a raw-string argument that holds a JSON object back into tool_use input', () => {
    expect(toAnthropicMessages([{ role: 'assistant', toolCalls: [{ id: 't1', name: 'x', args: '{"a":1}' }] }])).toEqual(
      [{ role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'x', input: { a: 1 } }] }],
    );
  });
});
