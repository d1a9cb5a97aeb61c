import { describe, expect, it } from 'vitest';
import { ToolrailError } from '../../../src/errors/toolrail-error';
import { ModelError } from '../../../src/models/model-error';
import { ToolAbortError } from '../../../src/tools/errors/tool-abort-error';
import { ToolExecutionError } from '../../../src/tools/errors/tool-execution-error';

describe('ToolrailError', () => {
  it('gives every subclass a stable code and a cause', () => {
    const cause = new Error('socket closed');
    const error = new ToolExecutionError({ message: 'the disk is full', cause });
    expect(error.code).toBe('TOOL_EXECUTION_FAILED');
    expect(error.message).toBe('the disk is full');
    expect(error.cause).toBe(cause);
    expect(error).toBeInstanceOf(ToolrailError);
    expect(error).toBeInstanceOf(Error);
  });

  it('recognises an instance of its own class and of the base, not of a sibling class', () => {
    const error = new ToolAbortError({ code: 'TIMEOUT' });
    expect(ToolAbortError.isInstance(error)).toBe(true);
    expect(ToolrailError.isInstance(error)).toBe(true);
    expect(ToolExecutionError.isInstance(error)).toBe(false);
    expect(ModelError.isInstance(error)).toBe(false);
  });

  it('recognises an instance from another copy of the module by its Symbol.for brand', () => {
    const copy = Object.assign(new Error('from another realm'), {
      [Symbol.for('toolrail.error')]: true,
      [Symbol.for('toolrail.error.TOOL_ABORTED')]: true,
      code: 'INTERRUPTED',
    });
    expect(ToolAbortError.isInstance(copy)).toBe(true);
    expect(ToolrailError.isInstance(copy)).toBe(true);
  });

  it('refuses plain errors and non-objects', () => {
    for (const value of [new Error('plain'), { code: 'TIMEOUT' }, 'TIMEOUT', null, undefined]) {
      expect(ToolrailError.isInstance(value)).toBe(false);
      expect(ToolAbortError.isInstance(value)).toBe(false);
    }
  });
});

describe('the public errors', () => {
  it('are each a ToolrailError with a brand of its own, in every entry of the package', async () => {
    const entries = await Promise.all([
      import('../../../src/index'),
      import('../../../src/client-entry'),
      import('../../../src/ai-sdk-entry'),
      import('../../../src/testing'),
    ]);
    const errorClasses = new Map<string, unknown>();
    for (const entry of entries) {
      for (const [name, value] of Object.entries(entry) as [string, unknown][]) {
        const prototype: unknown =
          typeof value === 'function' ? (value as { prototype: unknown }).prototype : undefined;
        if (prototype instanceof Error && value !== ToolrailError) errorClasses.set(name, value);
      }
    }
    expect(errorClasses.size).toBeGreaterThan(10);
    const outside = [...errorClasses].filter(
      ([, type]) => !((type as { prototype: unknown }).prototype instanceof ToolrailError),
    );
    expect(outside.map(([name]) => name)).toEqual([]);
    const brands = [...errorClasses.values()].map((type) => (type as { brand?: symbol }).brand);
    expect(new Set(brands).size).toBe(errorClasses.size);
  });
});
