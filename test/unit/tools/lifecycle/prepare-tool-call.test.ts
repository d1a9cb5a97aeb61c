import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { PreparedCall } from '../../../../src/dispatch/prepared-call';
import type { ToolErrorOutcome } from '../../../../src/dispatch/tool-outcome';
import { buildToolCatalog } from '../../../../src/tools/catalog/build-tool-catalog';
import { defineTool } from '../../../../src/tools/define-tool';
import { prepareToolCall } from '../../../../src/tools/lifecycle/prepare-tool-call';
import { interactive, sampleRegistry } from './sample-tools';

async function prepare(
  name: string,
  args: unknown,
  context: { sessionId: string; interactive: boolean } = interactive,
) {
  return prepareToolCall({ registry: sampleRegistry(), call: { id: 'call-1', name, args }, context });
}

function expectError(result: PreparedCall | ToolErrorOutcome): ToolErrorOutcome {
  if (result.type !== 'tool-error') throw new Error(`expected a tool-error, got ${JSON.stringify(result)}`);
  return result;
}

function expectPrepared(result: PreparedCall | ToolErrorOutcome): PreparedCall {
  if (result.type !== 'prepared-call') throw new Error(`expected a prepared call, got ${JSON.stringify(result)}`);
  return result;
}

describe('prepareToolCall', () => {
  it('prepares a valid call as plain JSON with its traits, permission and execution options', async () => {
    const prepared = expectPrepared(await prepare('search_files', { pattern: 'TODO', directory: '/src' }));
    expect(JSON.parse(JSON.stringify(prepared))).toEqual(prepared);
    expect(prepared).toMatchInlineSnapshot(`
      {
        "args": {
          "directory": "/src",
          "pattern": "TODO",
        },
        "callId": "call-1",
        "concurrency": "READ_ONLY",
        "concurrencySafe": true,
        "destructive": false,
        "execution": {
          "heartbeatTimeoutMs": null,
          "retry": {
            "backoffCoefficient": 2,
            "initialIntervalMs": 1000,
            "maximumAttempts": 3,
            "maximumIntervalMs": 30000,
          },
          "timeoutMs": 60000,
        },
        "input": {
          "directory": "/src",
          "limit": 20,
          "pattern": "TODO",
        },
        "interruptBehavior": "block",
        "openWorld": true,
        "permission": "allow",
        "permissionMessage": null,
        "readOnly": true,
        "requestedName": "search_files",
        "requiresUserInteraction": false,
        "toolName": "search_files",
        "type": "prepared-call",
      }
    `);
  });

  it('resolves an alias to the registered tool and remembers the name the model used', async () => {
    const prepared = expectPrepared(await prepare('grep_files', { pattern: 'x', directory: '/' }));
    expect(prepared).toMatchObject({ requestedName: 'grep_files', toolName: 'search_files' });
  });

  it.each(['__proto__', 'constructor', 'toString', 'nope'])('refuses %j as an unknown tool', async (name) => {
    const outcome = expectError(await prepare(name, {}));
    expect(outcome.code).toBe('UNKNOWN_TOOL');
    expect(outcome.message).toContain('Available tools: ask_user, search_files, shell, write_file');
  });

  it('reports a schema error and a semantic error with different codes', async () => {
    const schemaError = expectError(await prepare('search_files', { pattern: 42, directory: '/src' }));
    const semanticError = expectError(await prepare('search_files', { pattern: 'TODO', directory: 'src' }));
    expect(schemaError.code).toBe('INPUT_VALIDATION_ERROR');
    expect(schemaError.issues).toEqual([
      { code: 'invalid_type', path: ['pattern'], message: expect.any(String) as string },
    ]);
    expect(semanticError.code).toBe('VALIDATION_ERROR');
    expect(semanticError.message).toBe('The directory must be absolute, got "src".');
    expect(semanticError.issues).toBeUndefined();
  });

  it('reads arguments given as a JSON string, and an empty string as no arguments', async () => {
    expect(expectPrepared(await prepare('search_files', '{"pattern":"a","directory":"/"}')).input).toMatchObject({
      pattern: 'a',
    });
    const noArgs = defineTool({
      name: 'now',
      description: 'Time.',
      inputSchema: z.object({}),
      concurrency: 'READ_ONLY',
      execute: () => 0,
    });
    const registry = sampleRegistry();
    registry.register(noArgs);
    for (const args of ['', '  ', undefined, null]) {
      const result = await prepareToolCall({
        registry,
        call: { id: 'c', name: 'now', args },
        context: interactive,
      });
      expect(expectPrepared(result).args).toEqual({});
    }
  });

  it.each([
    ['unparsable JSON', '{"pattern": ', 'invalid_json'],
    ['a JSON array', '[1, 2]', 'invalid_type'],
    ['a number', 7, 'invalid_type'],
  ])('refuses %s as arguments', async (_label, args, code) => {
    const outcome = expectError(await prepare('search_files', args));
    expect(outcome).toMatchObject({ code: 'INPUT_VALIDATION_ERROR', issues: [{ code }] });
  });

  it('refuses top-level arguments the schema does not declare', async () => {
    const outcome = expectError(await prepare('search_files', { pattern: 'a', directory: '/', recursive: true }));
    expect(outcome.issues?.[0]).toMatchObject({
      code: 'unrecognized_keys',
      message: expect.stringContaining('"recursive"') as string,
    });
  });

  it('drops a null sent for an optional argument, as strict-mode models do', async () => {
    const prepared = expectPrepared(await prepare('shell', { command: 'ls -la', cwd: null }));
    expect(prepared.args).toEqual({ command: 'ls -la' });
  });

  it('treats a call whose concurrency classifier throws as unsafe', async () => {
    const prepared = expectPrepared(await prepare('shell', { command: 'ls $(cat list)' }));
    expect(prepared.concurrencySafe).toBe(false);
    expect(expectPrepared(await prepare('shell', { command: 'ls -la' })).concurrencySafe).toBe(true);
  });

  it('passes a deny verdict on to the workflow', async () => {
    const prepared = expectPrepared(await prepare('shell', { command: 'rm -rf /' }));
    expect(prepared).toMatchObject({
      permission: 'deny',
      permissionMessage: 'rm is not allowed here.',
      destructive: true,
    });
  });

  it('asks in an interactive session and denies in a non-interactive one', async () => {
    const args = { path: 'a.txt', content: 'x' };
    expect(expectPrepared(await prepare('write_file', args)).permission).toBe('ask');
    const denied = expectPrepared(await prepare('write_file', args, { sessionId: 's', interactive: false }));
    expect(denied.permission).toBe('deny');
    expect(denied.permissionMessage).toMatch(/not interactive/);
  });

  it('refuses a tool that needs a human in a non-interactive session', async () => {
    const outcome = expectError(
      await prepare('ask_user', { question: 'Deploy?' }, { sessionId: 's', interactive: false }),
    );
    expect(outcome.code).toBe('USER_INTERACTION_REQUIRED');
    expect(expectPrepared(await prepare('ask_user', { question: 'Deploy?' })).requiresUserInteraction).toBe(true);
  });

  it('gives destructive calls one attempt and read-only calls the read-only retry policy', async () => {
    const write = expectPrepared(await prepare('write_file', { path: 'a', content: 'b' }));
    const search = expectPrepared(await prepare('search_files', { pattern: 'a', directory: '/' }));
    expect(write.execution.retry.maximumAttempts).toBe(1);
    expect(search.execution.retry.maximumAttempts).toBe(3);
  });

  it('refuses a registered tool that is not in this turn’s catalog', async () => {
    const registry = sampleRegistry();
    const catalog = buildToolCatalog({ registry });
    registry.register(defineTool({ name: 'late', description: 'Late.', inputSchema: z.object({}), execute: () => '' }));
    const outcome = await prepareToolCall({
      registry,
      catalog,
      call: { id: 'c', name: 'late', args: {} },
      context: interactive,
    });
    expect(expectError(outcome).code).toBe('UNKNOWN_TOOL');
  });

  it('tells the model to load a deferred tool before calling it', async () => {
    const registry = sampleRegistry();
    registry.register(
      defineTool({
        name: 'send_mail',
        description: 'Mail.',
        inputSchema: z.object({}),
        shouldDefer: true,
        execute: () => '',
      }),
    );
    const hidden = buildToolCatalog({ registry });
    const call = { id: 'c', name: 'send_mail', args: {} };
    const outcome = expectError(await prepareToolCall({ registry, catalog: hidden, call, context: interactive }));
    expect(outcome.code).toBe('TOOL_NOT_LOADED');
    expect(outcome.message).toContain('select:send_mail');
    const revealed = buildToolCatalog({ registry, revealed: ['send_mail'] });
    expect((await prepareToolCall({ registry, catalog: revealed, call, context: interactive })).type).toBe(
      'prepared-call',
    );
  });

  it('refuses a disabled tool when no catalog is given', async () => {
    const registry = sampleRegistry();
    registry.register(
      defineTool({
        name: 'off',
        description: 'Off.',
        inputSchema: z.object({}),
        isEnabled: () => false,
        execute: () => '',
      }),
    );
    const outcome = await prepareToolCall({
      registry,
      call: { id: 'c', name: 'off', args: {} },
      context: interactive,
    });
    expect(expectError(outcome).code).toBe('UNKNOWN_TOOL');
  });

  it('refuses a tool that cannot run now with the reason, before its arguments or a human are asked', async () => {
    const registry = sampleRegistry();
    registry.register(
      Object.freeze({
        ...defineTool({
          name: 'remote_write',
          description: 'Writes.',
          inputSchema: z.object({ a: z.string() }),
          execute: () => '',
        }),
        unavailableReason: () => 'its MCP server exited with code 1',
      }),
    );
    const outcome = expectError(
      await prepareToolCall({ registry, call: { id: 'c', name: 'remote_write', args: {} }, context: interactive }),
    );
    expect(outcome).toMatchObject({
      code: 'TOOL_UNAVAILABLE',
      message: 'remote_write is unavailable: its MCP server exited with code 1',
    });
  });
});
