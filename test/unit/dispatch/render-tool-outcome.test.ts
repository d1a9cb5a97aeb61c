import { describe, expect, it } from 'vitest';
import { createToolErrorOutcome, MAX_TOOL_ERROR_MESSAGE_CHARS } from '../../../src/dispatch/create-tool-error-outcome';
import { renderToolOutcome } from '../../../src/dispatch/render-tool-outcome';
import { ToolErrorCode } from '../../../src/dispatch/tool-error-code';

describe('renderToolOutcome', () => {
  it('renders a string result as it is', () => {
    expect(renderToolOutcome({ type: 'tool-result', callId: 'c1', toolName: 'read', output: 'hello' })).toBe('hello');
  });

  it('renders any other result as compact JSON', () => {
    const text = renderToolOutcome({ type: 'tool-result', callId: 'c1', toolName: 'read', output: { lines: [1, 2] } });
    expect(text).toBe('{"lines":[1,2]}');
  });

  it('tells the model where an offloaded result went and shows the preview', () => {
    const text = renderToolOutcome({
      type: 'tool-result',
      callId: 'c1',
      toolName: 'read',
      output: 'abc',
      offloadedTo: '/results/s/c1.txt',
      fullSizeChars: 123_456,
    });
    expect(text).toMatchInlineSnapshot(`
      "Output too large (123,456 characters): the full output was saved to /results/s/c1.txt; read that file in parts if you need more.
      Preview (first 3 characters):
      abc"
    `);
  });

  it('says when a truncated result could not be saved', () => {
    const text = renderToolOutcome({
      type: 'tool-result',
      callId: 'c1',
      toolName: 'read',
      output: 'ab',
      fullSizeChars: 10,
    });
    expect(text).toContain('could not be saved');
  });

  it('renders an error with its code and one line per issue', () => {
    const outcome = createToolErrorOutcome({
      callId: 'c1',
      toolName: 'search',
      code: ToolErrorCode.INPUT_VALIDATION_ERROR,
      message: 'The arguments do not match the input schema of search.',
      issues: [
        { code: 'invalid_type', path: ['query'], message: 'Invalid input: expected string, received number' },
        { code: 'too_small', path: ['filters', 0, 'limit'], message: 'Too small: expected number to be >=1' },
        { code: 'unrecognized_keys', path: [], message: 'Unknown parameter(s) "x"' },
      ],
    });
    expect(renderToolOutcome(outcome)).toMatchInlineSnapshot(`
      "Error [INPUT_VALIDATION_ERROR]: The arguments do not match the input schema of search.
      - query: Invalid input: expected string, received number
      - filters.0.limit: Too small: expected number to be >=1
      - (root): Unknown parameter(s) "x""
    `);
  });
});

describe('createToolErrorOutcome', () => {
  it('bounds a huge message so one failure cannot flood the context', () => {
    const outcome = createToolErrorOutcome({
      callId: 'c1',
      toolName: 'run',
      code: ToolErrorCode.EXECUTION_ERROR,
      message: 'x'.repeat(MAX_TOOL_ERROR_MESSAGE_CHARS + 500),
    });
    expect(outcome.message.length).toBeLessThan(MAX_TOOL_ERROR_MESSAGE_CHARS + 50);
    expect(outcome.message).toMatch(/\[500 more characters\]$/);
  });

  it('leaves out empty issue lists and unset retryability', () => {
    const outcome = createToolErrorOutcome({
      callId: 'c1',
      toolName: 'run',
      code: ToolErrorCode.TIMEOUT,
      message: 'slow',
      issues: [],
    });
    expect(outcome).toEqual({ type: 'tool-error', callId: 'c1', toolName: 'run', code: 'TIMEOUT', message: 'slow' });
  });
});
