import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../../src/tools/define-tool';
import { ToolDefinitionError } from '../../../src/tools/errors/tool-definition-error';

const base = { name: 'read_file', description: 'Reads a file.', inputSchema: z.object({ path: z.string() }) };

/** Defines a tool from a plain object, as a JavaScript caller (no type checking) would. */
function defineUnchecked(definition: Record<string, unknown>) {
  return defineTool({ ...base, execute: () => '', ...definition });
}

describe('defineTool with keys it does not know', () => {
  it('refuses a misnamed option, naming it and the nearest valid one', () => {
    const define = () => defineUnchecked({ permission: 'allow' });
    expect(define).toThrow(ToolDefinitionError);
    expect(define).toThrow('unknown option "permission" (did you mean "checkPermissions"?)');
  });

  it.each([
    ['timeout', 'timeoutMs'],
    ['readOnly', 'isReadOnly'],
    ['Concurrency', 'concurrency'],
    ['alias', 'aliases'],
  ])('suggests the nearest option for %j', (key, suggestion) => {
    expect(() => defineUnchecked({ [key]: 1 })).toThrow(`unknown option "${key}" (did you mean "${suggestion}"?)`);
  });

  it('accepts every documented option', () => {
    const tool = defineUnchecked({
      concurrency: 'READ_ONLY',
      isConcurrencySafe: () => true,
      isReadOnly: () => true,
      isDestructive: () => false,
      isOpenWorld: () => false,
      requiresPermission: false,
      checkPermissions: () => ({ behavior: 'allow' }),
      validateInput: () => ({ valid: true }),
      requiresUserInteraction: false,
      interruptBehavior: 'cancel',
      maxResultSizeChars: 100,
      aliases: ['cat'],
      shouldDefer: false,
      alwaysLoad: true,
      searchHint: 'files',
      isEnabled: true,
      timeoutMs: 1_000,
      heartbeatTimeoutMs: 500,
      localActivity: false,
      retry: { maximumAttempts: 2 },
      origin: { kind: 'local' },
    });
    expect(tool.name).toBe('read_file');
  });
});
