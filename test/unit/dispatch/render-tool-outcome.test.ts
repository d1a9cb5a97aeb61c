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
    const key = 'a'.repeat(64);
    const text = renderToolOutcome({
      type: 'tool-result',
      callId: 'c1',
      toolName: 'read',
      output: 'abc',
      offloadedTo: key,
      fullSizeChars: 123_456,
    });
    expect(text).toBe(
      `Output too large (123,456 characters): the full output is stored in this session's content store as ${key}.\nPreview (first 3 characters):\nabc`,
    );
  });

  it('says that a call whose output could not be stored ran, and why only a preview is there', () => {
    const text = renderToolOutcome({
      type: 'tool-result',
      callId: 'c1',
      toolName: 'issue_refund',
      output: '{"refund":"R-1',
      fullSizeChars: 40_000,
      storeError: 'Content store postgres:db is unavailable (connect ECONNREFUSED)',
    });
    expect(text).toContain('issue_refund ran and returned 40,000 characters');
    expect(text).toContain('ECONNREFUSED');
    expect(text).toContain('it took effect');
    expect(text).not.toMatch(/retry|failed/i);
    expect(text.endsWith('{"refund":"R-1')).toBe(true);
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
