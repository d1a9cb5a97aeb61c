import { describe, expect, it } from 'vitest';
import { toolOutputOf } from '../../../src/client/tool-output';
import { toolResultMessage } from '../../../src/dispatch';

const result = (output: unknown, extra: object = {}) =>
  toolResultMessage({ type: 'tool-result', callId: 'c', toolName: 't', output: output as never, ...extra });

describe("a stored tool result's output", () => {
  it('is the value the tool returned: objects, numbers and strings that look like JSON alike', () => {
    expect(toolOutputOf(result({ eligible: true, items: [1, 2] }))).toEqual({ eligible: true, items: [1, 2] });
    expect(toolOutputOf(result(42))).toBe(42);
    expect(toolOutputOf(result(null))).toBeNull();
    expect(toolOutputOf(result('{"not":"parsed"}'))).toBe('{"not":"parsed"}');
  });

  it('is its preview and where it is stored when it was offloaded, and says when it could not be stored', () => {
    expect(toolOutputOf(result('abc', { fullSizeChars: 9_000, offloadedTo: 'k1' }))).toEqual({
      offloaded: { key: 'k1', chars: 9_000 },
      preview: 'abc',
    });
    expect(toolOutputOf(result('abc', { fullSizeChars: 9_000, storeError: 'down' }))).toEqual({
      offloaded: { chars: 9_000 },
      preview: 'abc',
    });
  });

  it('is the message of an error, and the text of a result stored before outputs were marked', () => {
    const error = toolResultMessage({
      type: 'tool-error',
      callId: 'c',
      toolName: 't',
      code: 'EXECUTION_ERROR',
      message: 'boom',
    });
    expect(toolOutputOf(error)).toBe('Error [EXECUTION_ERROR]: boom');
    expect(toolOutputOf({ role: 'tool', callId: 'c', toolName: 't', content: '{"a":1}', isError: false })).toBe(
      '{"a":1}',
    );
  });
});
