import { describe, expect, it } from 'vitest';
import { isToolErrorCode, ToolErrorCode } from '../../../src/dispatch/tool-error-code';

describe('ToolErrorCode', () => {
  it('maps every key to the identical string, so histories stay readable', () => {
    for (const [key, value] of Object.entries(ToolErrorCode)) expect(value).toBe(key);
  });

  it('keeps the released set of codes (only ever added to)', () => {
    expect(Object.values(ToolErrorCode)).toMatchInlineSnapshot(`
      [
        "UNKNOWN_TOOL",
        "TOOL_NOT_LOADED",
        "INPUT_VALIDATION_ERROR",
        "VALIDATION_ERROR",
        "PERMISSION_DENIED",
        "USER_INTERACTION_REQUIRED",
        "APPROVAL_REQUIRED",
        "APPROVAL_DENIED",
        "APPROVAL_TIMEOUT",
        "HOOK_BLOCKED",
        "HOOK_INPUT_INVALID",
        "EXECUTION_ERROR",
        "RULE_BLOCKED",
        "SIBLING_ABORTED",
        "INTERRUPTED",
        "TIMEOUT",
        "TOOL_UNAVAILABLE",
      ]
    `);
  });

  it('recognises its codes and nothing else', () => {
    expect(isToolErrorCode('TIMEOUT')).toBe(true);
    expect(isToolErrorCode('timeout')).toBe(false);
    expect(isToolErrorCode('toString')).toBe(false);
    expect(isToolErrorCode(undefined)).toBe(false);
  });
});
