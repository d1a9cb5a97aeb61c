import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../../src/tools/define-tool';
import { ToolDefinitionError } from '../../../src/tools/errors/tool-definition-error';
import type { ToolCallContext } from '../../../src/tools/tool-context';

const context: ToolCallContext = {
  sessionId: 's1',
  callId: 'c1',
  interactive: true,
  signal: new AbortController().signal,
};
const pathInput = z.object({ path: z.string() });

describe('defineTool', () => {
  it('fails closed when a tool declares nothing', async () => {
    const tool = defineTool({
      name: 'touch',
      description: 'Touches a file.',
      inputSchema: pathInput,
      execute: () => 'ok',
    });
    expect(tool.classify({ path: 'a' })).toEqual({
      concurrencySafe: false,
      readOnly: false,
      destructive: true,
      openWorld: true,
    });
    expect(tool.concurrency).toBe('UNSAFE');
    expect(tool.requiresPermission).toBe(true);
    expect(await tool.checkPermissions({ path: 'a' }, context)).toEqual({
      behavior: 'ask',
      message: 'touch requires permission to run.',
    });
    expect(tool.interruptBehavior).toBe('block');
    expect(tool.maxResultSizeChars).toBe(50_000);
    expect(tool.timeoutMs).toBe(60_000);
    expect(tool.heartbeatTimeoutMs).toBeNull();
    expect(tool.retry).toBeNull();
    expect(tool.shouldDefer).toBe(false);
    expect(tool.isEnabled()).toBe(true);
  });

  it('relaxes the defaults for a tool that claims READ_ONLY', async () => {
    const tool = defineTool({
      name: 'read_file',
      description: 'Reads a file.',
      inputSchema: pathInput,
      concurrency: 'READ_ONLY',
      execute: () => 'text',
    });
    expect(tool.classify({ path: 'a' })).toEqual({
      concurrencySafe: true,
      readOnly: true,
      destructive: false,
      openWorld: true,
    });
    expect(tool.requiresPermission).toBe(false);
    expect(await tool.checkPermissions({ path: 'a' }, context)).toEqual({ behavior: 'allow' });
  });

  it('keeps WRITE_EXCLUSIVE calls serial and destructive by default', () => {
    const tool = defineTool({
      name: 'write',
      description: 'Writes.',
      inputSchema: pathInput,
      concurrency: 'WRITE_EXCLUSIVE',
      execute: () => 1,
    });
    expect(tool.classify({ path: 'a' })).toMatchObject({ concurrencySafe: false, destructive: true });
  });

  it('treats a throwing concurrency classifier as unsafe', () => {
    const tool = defineTool({
      name: 'shell',
      description: 'Runs a command.',
      inputSchema: z.object({ command: z.string() }),
      isConcurrencySafe: () => {
        throw new Error('cannot parse command');
      },
      execute: () => '',
    });
    expect(tool.classify({ command: 'ls' }).concurrencySafe).toBe(false);
  });

  it('treats throwing or non-boolean flag classifiers as the unsafe answer', () => {
    const boom = (): boolean => {
      throw new Error('boom');
    };
    const tool = defineTool({
      name: 'odd',
      description: 'Odd classifiers.',
      inputSchema: pathInput,
      concurrency: 'READ_ONLY',
      isReadOnly: boom,
      isDestructive: boom,
      isOpenWorld: () => 'no' as unknown as boolean,
      execute: () => '',
    });
    expect(tool.classify({ path: 'a' })).toEqual({
      concurrencySafe: false,
      readOnly: false,
      destructive: true,
      openWorld: true,
    });
  });

  it('decides concurrency per call from the parsed input', () => {
    const tool = defineTool({
      name: 'shell',
      description: 'Runs a command.',
      inputSchema: z.object({ command: z.string() }),
      isConcurrencySafe: ({ command }) => command.startsWith('ls'),
      execute: () => '',
    });
    expect(tool.classify({ command: 'ls -la' }).concurrencySafe).toBe(true);
    expect(tool.classify({ command: 'rm -rf x' }).concurrencySafe).toBe(false);
  });

  it('does not let the READ_ONLY class vouch for a call its own classifier says writes', () => {
    const tool = defineTool({
      name: 'sql',
      description: 'Runs SQL.',
      inputSchema: z.object({ query: z.string() }),
      concurrency: 'READ_ONLY',
      isReadOnly: ({ query }) => query.startsWith('SELECT'),
      execute: () => [],
    });
    expect(tool.classify({ query: 'SELECT 1' }).concurrencySafe).toBe(true);
    expect(tool.classify({ query: 'DELETE FROM t' }).concurrencySafe).toBe(false);
  });

  it('denies when checkPermissions throws', async () => {
    const tool = defineTool({
      name: 'send',
      description: 'Sends.',
      inputSchema: pathInput,
      checkPermissions: () => {
        throw new Error('policy server down');
      },
      execute: () => '',
    });
    expect(await tool.checkPermissions({ path: 'a' }, context)).toEqual({
      behavior: 'deny',
      message: 'The permission check of send failed: policy server down',
    });
  });

  it('refuses the input when validateInput throws', async () => {
    const tool = defineTool({
      name: 'check',
      description: 'Checks.',
      inputSchema: pathInput,
      validateInput: async () => {
        await Promise.resolve();
        throw new Error('disk unreadable');
      },
      execute: () => '',
    });
    expect(await tool.validateInput({ path: 'a' }, context)).toEqual({
      valid: false,
      message: 'The input could not be validated: disk unreadable',
    });
  });

  it('reports a tool whose isEnabled throws as disabled', () => {
    const tool = defineTool({
      name: 'flaky',
      description: 'Flaky.',
      inputSchema: pathInput,
      isEnabled: () => {
        throw new Error('no');
      },
      execute: () => '',
    });
    expect(tool.isEnabled()).toBe(false);
  });

  it('fills a partial retry policy with the at-most-once defaults', () => {
    const tool = defineTool({
      name: 'fetch',
      description: 'Fetches.',
      inputSchema: pathInput,
      retry: { maximumAttempts: 5 },
      execute: () => '',
    });
    expect(tool.retry).toEqual({
      maximumAttempts: 5,
      initialIntervalMs: 1_000,
      backoffCoefficient: 2,
      maximumIntervalMs: 30_000,
    });
  });

  it.each([
    ['a name with spaces', { name: 'read file' }],
    ['a name longer than 64 characters', { name: 'x'.repeat(65) }],
    ['an empty description', { description: ' ' }],
    ['an alias equal to the name', { aliases: ['tool'] }],
    ['a duplicate alias', { aliases: ['old', 'old'] }],
    ['an alias with a dot', { aliases: ['old.name'] }],
    ['a zero result size', { maxResultSizeChars: 0 }],
    ['a fractional timeout', { timeoutMs: 1.5 }],
    ['an unknown concurrency class', { concurrency: 'SAFE' }],
    ['a retry policy of zero attempts', { retry: { maximumAttempts: 0 } }],
  ])('refuses %s', (_label, override) => {
    const definition = { name: 'tool', description: 'A tool.', inputSchema: pathInput, execute: () => '', ...override };
    expect(() => defineTool(definition as Parameters<typeof defineTool>[0])).toThrow(ToolDefinitionError);
  });

  it('refuses a recursive input schema when the tool is defined', () => {
    const node: z.ZodType = z.object({
      name: z.string(),
      get children() {
        return z.array(node);
      },
    });
    const define = () =>
      defineTool({ name: 'tree', description: 'Tree.', inputSchema: z.object({ root: node }), execute: () => '' });
    expect(define).toThrow(ToolDefinitionError);
    expect(define).toThrow(/recursive|Cycle/i);
  });

  it.each([
    ['a string root', z.string()],
    ['a union root', z.union([z.object({ a: z.string() }), z.object({ b: z.string() })])],
    ['an unrepresentable type', z.object({ when: z.date() })],
  ])('refuses %s', (_label, inputSchema) => {
    expect(() => defineTool({ name: 'bad', description: 'Bad.', inputSchema, execute: () => '' })).toThrow(
      ToolDefinitionError,
    );
  });

  it('recognises its errors across realms by marker', () => {
    let caught: unknown;
    try {
      defineTool({ name: 'bad name', description: 'Bad.', inputSchema: pathInput, execute: () => '' });
    } catch (error) {
      caught = error;
    }
    expect(ToolDefinitionError.isInstance(caught)).toBe(true);
    expect(ToolDefinitionError.isInstance(new Error('other'))).toBe(false);
  });
});
