import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreparedCall } from '../../../src/dispatch/prepared-call';
import type { ToolOutcome } from '../../../src/dispatch/tool-outcome';
import { ToolAbortError } from '../../../src/tools/errors/tool-abort-error';
import { executePreparedCall } from '../../../src/tools/lifecycle/execute-prepared-call';
import { prepareToolCall } from '../../../src/tools/lifecycle/prepare-tool-call';
import type { ToolSessionContext } from '../../../src/tools/lifecycle/tool-session-context';
import { connectMcpServer } from '../../../src/tools/mcp/connect-mcp-server';
import type { McpServerConnection } from '../../../src/tools/mcp/mcp-server-connection';
import { syncMcpTools } from '../../../src/tools/mcp/sync-mcp-tools';
import { ToolRegistry } from '../../../src/tools/tool-registry';
import { type HttpFixture, startHttpFixture, stdioFixture } from './start-fixture-server';

const context: ToolSessionContext = { sessionId: 'mcp-session', interactive: true };

async function prepare(registry: ToolRegistry, name: string, args: unknown): Promise<PreparedCall | ToolOutcome> {
  return prepareToolCall({ registry, call: { id: `call-${name}-${Math.random()}`, name, args }, context });
}

async function call(
  registry: ToolRegistry,
  name: string,
  args: unknown,
  overrides: Partial<ToolSessionContext> = {},
): Promise<ToolOutcome> {
  const prepared = await prepare(registry, name, args);
  if (prepared.type !== 'prepared-call') return prepared;
  return executePreparedCall({
    registry,
    prepared,
    context: { ...context, ...overrides },
    approved: true,
  });
}

describe('MCP bridge over stdio', () => {
  let connection: McpServerConnection;
  const registry = new ToolRegistry();
  let skipped: readonly { name: string; reason: string }[] = [];

  beforeAll(async () => {
    connection = await connectMcpServer({ name: 'fixture', transport: stdioFixture });
    ({ skipped } = await syncMcpTools({ registry, connection }));
  }, 60_000);
  afterAll(async () => {
    await connection.close();
  });

  it('bridges every tool it can validate and reports the one it cannot', () => {
    expect(registry.list().map((tool) => tool.name)).toEqual([
      'mcp__fixture__add_note',
      'mcp__fixture__big_dump_0326ad65',
      'mcp__fixture__echo',
      'mcp__fixture__fail',
      'mcp__fixture__last_wait',
      'mcp__fixture__unlock_extra_tool',
      'mcp__fixture__wait',
      'mcp__fixture__wipe_notes',
      'tool_search',
    ]);
    expect(skipped).toEqual([{ name: 'tree', reason: expect.stringMatching(/not portable.*Cycle/) as string }]);
  });

  it('maps readOnlyHint to READ_ONLY', async () => {
    const prepared = await prepare(registry, 'mcp__fixture__echo', { text: 'hi' });
    expect(prepared).toMatchObject({
      concurrency: 'READ_ONLY',
      concurrencySafe: true,
      readOnly: true,
      destructive: false,
      openWorld: false,
      permission: 'allow',
    });
  });

  it('keeps the spec defaults when hints are missing: destructive, open world, permission required', async () => {
    const prepared = await prepare(registry, 'mcp__fixture__wipe_notes', {});
    expect(prepared).toMatchObject({
      concurrency: 'UNSAFE',
      concurrencySafe: false,
      readOnly: false,
      destructive: true,
      openWorld: true,
      permission: 'ask',
    });
    expect(prepared.type === 'prepared-call' ? prepared.execution.retry.maximumAttempts : 0).toBe(1);
  });

  it('relaxes only what explicit hints say: a non-destructive idempotent write may retry but stays serial', async () => {
    const prepared = await prepare(registry, 'mcp__fixture__add_note', { note: 'n' });
    expect(prepared).toMatchObject({
      concurrency: 'UNSAFE',
      concurrencySafe: false,
      destructive: false,
      openWorld: false,
      permission: 'ask',
    });
    expect(prepared.type === 'prepared-call' ? prepared.execution.retry.maximumAttempts : 0).toBe(3);
  });

  it('validates arguments against the server’s JSON Schema before the server sees them', async () => {
    const outcome = await prepare(registry, 'mcp__fixture__echo', { text: 5 });
    expect(outcome).toMatchObject({ type: 'tool-error', code: 'INPUT_VALIDATION_ERROR', issues: [{ path: ['text'] }] });
  });

  it('calls the tool through the lifecycle, applying schema defaults', async () => {
    expect(await call(registry, 'mcp__fixture__echo', { text: 'hi', times: 2 })).toMatchObject({
      type: 'tool-result',
      output: 'hi hi',
    });
    expect(await call(registry, 'mcp__fixture__echo', '{"text":"once"}')).toMatchObject({ output: 'once' });
  });

  it('returns structured content as the output', async () => {
    const outcome = await call(registry, 'mcp__fixture__add_note', { note: 'first' });
    expect(outcome).toMatchObject({ type: 'tool-result', output: { count: expect.any(Number) as number } });
  });

  it('turns an isError result into EXECUTION_ERROR', async () => {
    expect(await call(registry, 'mcp__fixture__fail', {})).toMatchObject({
      type: 'tool-error',
      code: 'EXECUTION_ERROR',
      message: 'the fixture failed on purpose',
      retryable: false,
    });
  });

  it('honours _meta limits (the tool activity offloads a result over maxResultSizeChars)', async () => {
    const outcome = await call(registry, 'mcp__fixture__big_dump_0326ad65', { size: 5_000 });
    expect(outcome).toMatchObject({ type: 'tool-result' });
    expect(registry.get('mcp__fixture__big_dump_0326ad65')?.maxResultSizeChars).toBe(1_000);
    expect(registry.get('mcp__fixture__big_dump_0326ad65')?.searchHint).toBe('large output');
  });

  it('turns progress notifications into heartbeats', async () => {
    const beats: unknown[] = [];
    const outcome = await call(
      registry,
      'mcp__fixture__wait',
      { ms: 300 },
      { heartbeat: (details) => beats.push(details) },
    );
    expect(outcome).toMatchObject({ type: 'tool-result', output: 'done' });
    expect(beats.length).toBeGreaterThan(0);
  });

  it('cancels the server-side request when the call is aborted', async () => {
    const controller = new AbortController();
    // The first progress notification proves the server-side wait is running: interrupt it then.
    const interrupt = () =>
      controller.abort(new ToolAbortError({ code: 'INTERRUPTED', message: 'The user interrupted.' }));
    const outcome = await call(
      registry,
      'mcp__fixture__wait',
      { ms: 600_000 },
      { signal: controller.signal, heartbeat: interrupt },
    );
    expect(outcome).toMatchObject({ type: 'tool-error', code: 'INTERRUPTED', message: 'The user interrupted.' });
    // `last_wait` answers once the server-side wait has ended.
    expect(await call(registry, 'mcp__fixture__last_wait', {})).toMatchObject({
      type: 'tool-result',
      output: 'cancelled',
    });
  });
});

describe('MCP bridge over stdio when the server changes its tools', () => {
  it('picks up a changed tool list at the next sync', async () => {
    // A server process of its own: unlocking the extra tool changes that server's list for good.
    const connection = await connectMcpServer({ name: 'fixture', transport: stdioFixture });
    try {
      const registry = new ToolRegistry();
      await syncMcpTools({ registry, connection });
      await call(registry, 'mcp__fixture__unlock_extra_tool', {});
      // The server announces the change before it answers the call, on the same ordered stream.
      expect(connection.toolListChanged).toBe(true);
      const sync = await syncMcpTools({ registry, connection });
      expect(sync.added).toEqual(['mcp__fixture__extra']);
      expect(sync.removed).toEqual([]);
      expect(await call(registry, 'mcp__fixture__extra', {})).toMatchObject({ output: 'extra' });
    } finally {
      await connection.close();
    }
  });
});

describe('MCP bridge over stdio without trusting annotations', () => {
  it('relaxes nothing', async () => {
    const connection = await connectMcpServer({ name: 'untrusted', transport: stdioFixture, trustAnnotations: false });
    try {
      const registry = new ToolRegistry();
      await syncMcpTools({ registry, connection });
      expect(await prepare(registry, 'mcp__untrusted__echo', { text: 'x' })).toMatchObject({
        concurrency: 'UNSAFE',
        concurrencySafe: false,
        destructive: true,
        openWorld: true,
        permission: 'ask',
      });
    } finally {
      await connection.close();
    }
  }, 60_000);
});

describe('MCP bridge over streamable HTTP', () => {
  let fixture: HttpFixture;
  let connection: McpServerConnection;
  const registry = new ToolRegistry();

  beforeAll(async () => {
    fixture = await startHttpFixture();
    connection = await connectMcpServer({ name: 'remote', transport: { type: 'streamable-http', url: fixture.url } });
    await syncMcpTools({ registry, connection });
  }, 60_000);
  afterAll(async () => {
    await connection.close();
    await fixture.stop();
  });

  it('lists and calls tools of a server on a loopback port', async () => {
    expect(fixture.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(registry.get('mcp__remote__echo')?.concurrency).toBe('READ_ONLY');
    expect(await call(registry, 'mcp__remote__echo', { text: 'over http' })).toMatchObject({
      type: 'tool-result',
      output: 'over http',
    });
  });

  it('reports server-side failures as outcomes', async () => {
    expect(await call(registry, 'mcp__remote__fail', {})).toMatchObject({ code: 'EXECUTION_ERROR' });
  });
});
