import type { Tool as McpToolDescriptor } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { mcpToolName } from '../../../../src/tools/mcp/mcp-tool-name';
import { mcpToolToTool } from '../../../../src/tools/mcp/mcp-tool-to-tool';
import { renderMcpContent } from '../../../../src/tools/mcp/render-mcp-content';
import type { ToolExecutionContext } from '../../../../src/tools/tool-context';

const descriptor = (overrides: Partial<McpToolDescriptor> = {}): McpToolDescriptor => ({
  name: 'lookup',
  description: 'Looks something up.',
  inputSchema: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
  ...overrides,
});
const bridge = (overrides: Partial<McpToolDescriptor> = {}, trustAnnotations = true) =>
  mcpToolToTool({
    serverName: 'kb',
    descriptor: descriptor(overrides),
    callTool: () => Promise.resolve({ content: [] }),
    trustAnnotations,
  });
const context: ToolExecutionContext = {
  sessionId: 's',
  callId: 'c',
  interactive: true,
  signal: new AbortController().signal,
  idempotencyKey: 's/c',
  heartbeat: () => undefined,
};

describe('mcpToolToTool', () => {
  it.each([
    ['no annotations', undefined, { concurrencySafe: false, readOnly: false, destructive: true, openWorld: true }],
    [
      'readOnlyHint',
      { readOnlyHint: true },
      { concurrencySafe: true, readOnly: true, destructive: false, openWorld: true },
    ],
    [
      'destructiveHint: false',
      { destructiveHint: false },
      { concurrencySafe: false, readOnly: false, destructive: false, openWorld: true },
    ],
    [
      'openWorldHint: false',
      { openWorldHint: false },
      { concurrencySafe: false, readOnly: false, destructive: true, openWorld: false },
    ],
    [
      'readOnlyHint: false',
      { readOnlyHint: false },
      { concurrencySafe: false, readOnly: false, destructive: true, openWorld: true },
    ],
  ])('maps %s fail-closed', (_label, annotations, traits) => {
    const tool = bridge(annotations === undefined ? {} : { annotations });
    expect(tool.classify({ key: 'a' })).toEqual(traits);
  });

  it('ignores every hint of an untrusted server', () => {
    const tool = bridge({ annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false } }, false);
    expect(tool.concurrency).toBe('UNSAFE');
    expect(tool.classify({ key: 'a' })).toEqual({
      concurrencySafe: false,
      readOnly: false,
      destructive: true,
      openWorld: true,
    });
  });

  it('validates input with the server’s JSON Schema', async () => {
    const tool = bridge();
    expect((await tool.inputSchema.safeParseAsync({ key: 'a' })).success).toBe(true);
    expect((await tool.inputSchema.safeParseAsync({ key: 1 })).success).toBe(false);
  });

  it('refuses a schema it cannot make portable', () => {
    const recursive = {
      type: 'object' as const,
      properties: { node: { $ref: '#/$defs/Node' } },
      $defs: { Node: { type: 'object', properties: { next: { $ref: '#/$defs/Node' } } } },
    };
    expect(() => bridge({ inputSchema: recursive })).toThrow(/not portable/);
  });

  it('honours the interop _meta keys', () => {
    const tool = bridge({
      _meta: { 'anthropic/alwaysLoad': true, 'anthropic/searchHint': 'wiki', 'anthropic/maxResultSizeChars': 9_000 },
    });
    expect(tool).toMatchObject({
      alwaysLoad: true,
      searchHint: 'wiki',
      maxResultSizeChars: 9_000,
      origin: { kind: 'mcp', server: 'kb', tool: 'lookup' },
    });
  });

  it('passes the abort signal and a progress heartbeat to the client', async () => {
    const beats: unknown[] = [];
    let seenSignal: AbortSignal | undefined;
    const tool = mcpToolToTool({
      serverName: 'kb',
      descriptor: descriptor(),
      callTool: (request, { signal, onProgress }) => {
        seenSignal = signal;
        onProgress({ progress: 1 });
        return Promise.resolve({ content: [{ type: 'text', text: `found ${String(request.arguments['key'])}` }] });
      },
    });
    expect(await tool.execute({ key: 'a' }, { ...context, heartbeat: (details) => beats.push(details) })).toBe(
      'found a',
    );
    expect(seenSignal).toBe(context.signal);
    expect(beats).toEqual([{ progress: 1 }]);
  });
});

describe('mcpToolToTool: interrupts and approvals', () => {
  it.each([
    ['a read-only tool', { readOnlyHint: true }, true, { interruptBehavior: 'cancel', requiresPermission: false }],
    [
      'a non-destructive write',
      { destructiveHint: false },
      true,
      { interruptBehavior: 'block', requiresPermission: true },
    ],
    ['a tool without annotations', undefined, true, { interruptBehavior: 'block', requiresPermission: true }],
    [
      'a read-only tool of an untrusted server',
      { readOnlyHint: true },
      false,
      { interruptBehavior: 'block', requiresPermission: true },
    ],
  ])('defaults %s to what its trusted annotations allow', (_label, annotations, trustAnnotations, expected) => {
    const tool = bridge(annotations === undefined ? {} : { annotations }, trustAnnotations);
    expect({ interruptBehavior: tool.interruptBehavior, requiresPermission: tool.requiresPermission }).toEqual(
      expected,
    );
  });

  it('takes the interrupt behaviour and the permission it is given over the defaults', () => {
    const write = mcpToolToTool({
      serverName: 'kb',
      descriptor: descriptor({ annotations: { destructiveHint: false } }),
      callTool: () => Promise.resolve({ content: [] }),
      interruptBehavior: 'cancel',
      requiresPermission: false,
    });
    expect({ interruptBehavior: write.interruptBehavior, requiresPermission: write.requiresPermission }).toEqual({
      interruptBehavior: 'cancel',
      requiresPermission: false,
    });
    const read = mcpToolToTool({
      serverName: 'kb',
      descriptor: descriptor({ annotations: { readOnlyHint: true } }),
      callTool: () => Promise.resolve({ content: [] }),
      interruptBehavior: 'block',
    });
    expect(read.interruptBehavior).toBe('block');
  });

  it('refuses a tool that runs only as an MCP task', () => {
    expect(() => bridge({ execution: { taskSupport: 'required' } })).toThrow(/runs only as an MCP task/);
    expect(bridge({ execution: { taskSupport: 'optional' } }).name).toBe('mcp__kb__lookup');
  });

  it('reports why it is unavailable when its server says so', () => {
    const server: { down?: string } = {};
    const tool = mcpToolToTool({
      serverName: 'kb',
      descriptor: descriptor(),
      callTool: () => Promise.resolve({ content: [] }),
      unavailableReason: () => server.down,
    });
    expect(tool.unavailableReason?.()).toBeUndefined();
    server.down = 'the server exited with code 1';
    expect(tool.unavailableReason?.()).toBe('the server exited with code 1');
  });
});

describe('mcpToolToTool: input schemas as strict as the server declares', () => {
  const withSchema = (inputSchema: McpToolDescriptor['inputSchema']) => bridge({ inputSchema });

  it('refuses undeclared keys at the root and in declared nested objects, and so qualifies for strict mode', async () => {
    const tool = withSchema({
      type: 'object',
      properties: {
        key: { type: 'string' },
        filter: { type: 'object', properties: { field: { type: 'string' } } },
      },
      required: ['key'],
    });
    expect(tool.inputJsonSchema).toMatchObject({
      additionalProperties: false,
      properties: { filter: { additionalProperties: false } },
    });
    expect(tool.strictInputJsonSchema).not.toBeNull();
    expect((await tool.inputSchema.safeParseAsync({ key: 'a', bogus: true })).success).toBe(false);
    expect((await tool.inputSchema.safeParseAsync({ key: 'a', filter: { field: 'x', extra: 1 } })).success).toBe(false);
    expect((await tool.inputSchema.safeParseAsync({ key: 'a', filter: { field: 'x' } })).success).toBe(true);
  });

  it('keeps the keys a schema allows: additionalProperties, and free-form nested objects', async () => {
    const tool = withSchema({
      type: 'object',
      properties: { key: { type: 'string' }, metadata: { type: 'object' } },
      additionalProperties: { type: 'number' },
    });
    expect((await tool.inputSchema.safeParseAsync({ key: 'a', extra: 1, metadata: { any: 'thing' } })).success).toBe(
      true,
    );
    expect((await tool.inputSchema.safeParseAsync({ key: 'a', extra: 'not a number' })).success).toBe(false);
    // No strict form exists for a schema that allows keys it does not list.
    expect(tool.strictInputJsonSchema).toBeNull();
  });
});

describe('mcpToolName', () => {
  it('prefixes the server and keeps clean names readable', () => {
    expect(mcpToolName('github', 'create_issue')).toBe('mcp__github__create_issue');
  });

  it('replaces characters models refuse and keeps distinct names distinct', () => {
    const dotted = mcpToolName('fs', 'read.file');
    const underscored = mcpToolName('fs', 'read_file');
    expect(dotted).toMatch(/^mcp__fs__read_file_[0-9a-f]{8}$/);
    expect(dotted).not.toBe(underscored);
  });

  it('stays within 64 characters', () => {
    expect(mcpToolName('server', 'x'.repeat(100))).toHaveLength(64);
  });
});

describe('renderMcpContent', () => {
  it('prefers structured content', () => {
    expect(renderMcpContent({ structuredContent: { n: 1 }, content: [{ type: 'text', text: '1' }] })).toEqual({ n: 1 });
  });

  it('joins text and replaces binary blocks with short markers', () => {
    const text = renderMcpContent({
      content: [
        { type: 'text', text: 'hello' },
        { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' },
        { type: 'resource_link', uri: 'file:///a.txt', name: 'a' },
      ],
    });
    expect(text).toBe('hello\n[image: image/png, 8 base64 characters]\n[resource link: file:///a.txt]');
  });
});
